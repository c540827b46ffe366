/**
 * Proves that the codes a person would otherwise read (Claude Code's result subtypes and API error
 * codes, OS error texts, signals, statuses and stop reasons) come out as plain words, that the
 * text they stood for is kept for the hover, and that a message with nothing to translate is left
 * alone with no raw text to show.
 */
import { describe, expect, test } from "vitest";
import {
  rowTitleWords,
  activityWords,
  engineCodeWords,
  engineKindWords,
  osErrorWords,
  permissionRuleWords,
  plainMessage,
  sentence,
  statusWords,
  stopReasonWords,
} from "./humanize";

describe("Claude Code's stop reasons", () => {
  test("a failed turn that stored only its subtype reads as a sentence, the subtype kept", () => {
    expect(plainMessage("error_max_turns")).toEqual({
      words: "It stopped at its turn limit before it finished.",
      raw: "error_max_turns",
    });
    expect(plainMessage("error_max_budget_usd").words).toBe("It stopped at its spending limit before it finished.");
    expect(plainMessage("error_during_execution").words).toBe("It failed while it was working.");
    expect(plainMessage("error_max_structured_output_retries").words).toBe(
      "It could not give its answer in the form it was asked for.",
    );
  });

  test("a code in a notice's parentheses becomes words", () => {
    expect(plainMessage("The model's API answered with an error (rate_limit).")).toEqual({
      words: "The model's API answered with an error (the model's rate limit was reached).",
      raw: "The model's API answered with an error (rate_limit).",
    });
    expect(plainMessage("The model's API answered with an error (authentication_failed).").words).toContain(
      "not logged in",
    );
  });

  test("a code this page does not know stays as written", () => {
    expect(engineCodeWords("error_something_new")).toBeNull();
    expect(plainMessage("error_something_new")).toEqual({ words: "Error_something_new.", raw: "error_something_new" });
    expect(plainMessage("The model's API answered with an error (brand_new).").raw).toBeNull();
    // Only the object's own keys are codes.
    expect(engineCodeWords("constructor")).toBeNull();
  });
});

describe("OS errors", () => {
  test("the texts Rust prints are words, whatever their number on this system", () => {
    expect(osErrorWords("No such file or directory")).toBe("the file or folder was not found");
    expect(osErrorWords("Permission denied")).toBe("permission was denied");
    expect(osErrorWords("Something new")).toBeNull();
    expect(plainMessage("could not open the log: Permission denied (os error 13)")).toEqual({
      words: "Could not open the log: permission was denied.",
      raw: "could not open the log: Permission denied (os error 13)",
    });
    expect(plainMessage("bind: Address already in use (os error 48)").words).toBe("Bind: the port is already in use.");
  });

  test("an OS error inside a longer text is found without taking the words before it", () => {
    expect(plainMessage("failed to read foo No such file or directory (os error 2)").words).toBe(
      "Failed to read foo the file or folder was not found.",
    );
    expect(plainMessage("boom: Unknown thing (os error 999)").words).toBe("Boom: Unknown thing (os error 999).");
  });

  test("a program that could not start, as older servers and runners wrote it, names the program", () => {
    expect(
      plainMessage("engine `primary` could not be started (claude): No such file or directory (os error 2)"),
    ).toEqual({
      words: "Engine `primary` could not be started: the program `claude` was not found on PATH.",
      raw: "engine `primary` could not be started (claude): No such file or directory (os error 2)",
    });
    expect(
      plainMessage("the engine could not be started (/opt/bin/claude): Permission denied (os error 13)").words,
    ).toBe("The engine could not be started: the program `/opt/bin/claude` may not be run (is it executable?).");
    expect(plainMessage("x could not be started (/usr/bin/codex): No such file or directory (os error 2)").words).toBe(
      "X could not be started: the program `/usr/bin/codex` does not exist.",
    );
  });

  test("the server's own message keeps its raw OS error at the end, which goes to the hover", () => {
    const stored =
      "Claude Code could not be started: the program `claude` was not found on PATH. Configure it in engines.toml (docs/engines.md). (No such file or directory (os error 2))";
    expect(plainMessage(stored)).toEqual({
      words:
        "Claude Code could not be started: the program `claude` was not found on PATH. Configure it in engines.toml (docs/engines.md).",
      raw: stored,
    });
  });
});

describe("how the engine's process ended", () => {
  test("an exit status, with what the engine said or without", () => {
    expect(plainMessage("the engine exited with status 1").words).toBe("The engine stopped with exit status 1.");
    expect(plainMessage("the engine exited with status 2: API Error: 529 overloaded").words).toBe(
      "The engine stopped with an error: API Error: 529 overloaded.",
    );
    expect(plainMessage("the engine exited with status 1: error_max_turns")).toEqual({
      words: "The engine stopped at its turn limit before it finished.",
      raw: "the engine exited with status 1: error_max_turns",
    });
  });

  test("a signal by what it does, its name kept", () => {
    expect(plainMessage("the engine was killed by signal 9").words).toBe("The engine was killed (SIGKILL).");
    expect(plainMessage("the engine was killed by signal 15: stopping").words).toBe(
      "The engine was terminated (SIGTERM): stopping.",
    );
    expect(plainMessage("the engine was killed by signal 64").words).toBe("The engine was stopped by signal 64.");
  });

  test("a lost process is Switchboard's, and its OS error words", () => {
    expect(plainMessage("lost track of the engine process: No child processes (os error 10)").words).toBe(
      "Switchboard lost track of the engine's process: the process had already ended.",
    );
  });

  test("a plain sentence is left as it is, with nothing for the hover", () => {
    expect(plainMessage("Usage limit reached!")).toEqual({ words: "Usage limit reached!", raw: null });
    expect(plainMessage("  stream disconnected\n")).toEqual({
      words: "Stream disconnected.",
      raw: "stream disconnected",
    });
  });
});

describe("Switchboard's own codes", () => {
  test("statuses, stop reasons, engine kinds and activities in words; a newer server's code by its name", () => {
    expect(statusWords("waiting_for_input")).toBe("waiting for input");
    expect(statusWords("out_of_disk")).toBe("out of disk");
    expect(stopReasonWords("closed")).toBe("closed by you");
    expect(stopReasonWords("out_of_disk")).toBe("out of disk");
    expect(engineKindWords("claude")).toBe("Claude Code");
    expect(engineKindWords("gemini")).toBe("gemini");
    expect(activityWords("running")).toBe("Running");
    expect(activityWords("sleeping_deeply")).toBe("Sleeping deeply");
  });

  test("a sentence starts with a capital and ends with a stop, once", () => {
    expect(sentence("done")).toBe("Done.");
    expect(sentence("Done!")).toBe("Done!");
    expect(sentence("   ")).toBe("");
  });
});

describe("the permission broker's rules", () => {
  test("a rule says why, in words; an unknown one by its name", () => {
    expect(permissionRuleWords("guarded_edit_outside")).toBe(
      "edits outside the session's folder wait for your approval",
    );
    expect(permissionRuleWords("sensitive_path")).toBe("it touches a sensitive file");
    expect(permissionRuleWords("brand_new_rule")).toBe("brand new rule");
  });
});

describe("an inbox row's title", () => {
  test("says a failure's code in words and keeps the stored title", () => {
    expect(rowTitleWords("Fix the build failed: error_max_turns")).toEqual({
      words: "Fix the build failed: It stopped at its turn limit before it finished.",
      raw: "Fix the build failed: error_max_turns",
    });
  });

  test("leaves titles with nothing coded as they are", () => {
    expect(rowTitleWords("Fix the build failed: the tests did not pass")).toEqual({
      words: "Fix the build failed: the tests did not pass",
      raw: null,
    });
    expect(rowTitleWords("Pick a database?")).toEqual({ words: "Pick a database?", raw: null });
  });
});
