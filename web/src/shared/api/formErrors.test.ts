import { describe, expect, it } from "vitest";
import { ApiError } from "./client";
import { fieldProblems, formErrors, generalMessage, messageFor, NO_ERRORS, withoutFields } from "./formErrors";

describe("formErrors", () => {
  it("shows every field the server names, each under its field", () => {
    const error = new ApiError(400, "invalid_request", "The minute must be 0–59, not 61.", "cron", [
      { field: "cron", message: "The minute must be 0–59, not 61." },
      { field: "cron", message: "The hour must be 0–23, not 25." },
      { field: "timeZone", message: "No time zone is called Mars/Olympus: use a name such as Europe/Berlin." },
      { field: "values", message: "Give a value for {{label}}." },
    ]);
    const errors = formErrors(error);
    expect(messageFor(errors, "cron")).toBe("The minute must be 0–59, not 61. The hour must be 0–23, not 25.");
    expect(messageFor(errors, "timeZone")).toBe(
      "No time zone is called Mars/Olympus: use a name such as Europe/Berlin.",
    );
    expect(messageFor(errors, "values")).toBe("Give a value for {{label}}.");
    expect(messageFor(errors, "recipeId")).toBeUndefined();
    expect(generalMessage(errors, ["cron", "timeZone", "values"])).toBeUndefined();
    // A field the form does not show is said above its buttons.
    expect(generalMessage(errors, ["cron", "timeZone"])).toBe("Give a value for {{label}}.");
  });

  it("turns a single terse refusal into a sentence under its field", () => {
    const error = new ApiError(400, "invalid_request", "when.boardId: names no board of this account", "when.boardId");
    expect(messageFor(formErrors(error), "when.boardId")).toBe("Names no board of this account.");
  });

  it("says a refusal about no field above the buttons", () => {
    const conflict = formErrors(new ApiError(409, "name_taken", "The name is taken."));
    expect(conflict).toEqual({ byField: {}, general: "The name is taken." });
    expect(generalMessage(conflict, ["name"])).toBe("The name is taken.");
    expect(formErrors(new Error("offline")).general).toBe("offline");
  });

  it("gathers a form's own problems by field", () => {
    const errors = fieldProblems([
      ["name", "Give the recipe a name."],
      ["cwd", "Give the folder the session starts in."],
      ["name", "Again."],
    ]);
    expect(errors.byField).toEqual({
      name: ["Give the recipe a name.", "Again."],
      cwd: ["Give the folder the session starts in."],
    });
    expect(errors.general).toBeNull();
    expect(NO_ERRORS).toEqual({ byField: {}, general: null });
    // A field edited stops being refused; the others still are.
    expect(withoutFields(errors, ["name"]).byField).toEqual({ cwd: ["Give the folder the session starts in."] });
  });
});
