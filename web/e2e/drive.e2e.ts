/**
 * The Drive page (issue 70) against a real server and a real WebDAV server (WsgiDAV from
 * `target/pyenv`, with a password). The account is added in the page; a folder is made, opened
 * and walked back through the breadcrumbs; a file is uploaded by the picker and another dropped
 * on the page, each with its progress, and both land on the WebDAV server's disk; a file
 * downloads as itself; rename, move and delete (after its confirm) change the server's files; a
 * name with `..` is refused in the page. The page passes axe at 1440 and 390 px in both themes.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { everyLook } from "./axe";
import { startDav, type DavRig } from "./davRig";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();
const USER = "ada";
const PASSWORD = "e2e-dav-secret";
let dav: DavRig | undefined;
let share = "";
let davUrl = "";

beforeAll(async () => {
  dav = await startDav(USER, PASSWORD);
  share = dav.share;
  davUrl = dav.url;
});

afterAll(() => {
  dav?.stop();
});

test("adds a drive, browses, uploads with progress, downloads, renames, moves and deletes", async () => {
  const { server } = e2e;
  await setSetting(server, "driveEnabled", true);
  const { context, page } = await loggedInPage(e2e, "/drive");
  const errors = consoleErrors(page);
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Drive" }).waitFor();

  const form = page.getByRole("form", { name: "Add a WebDAV drive" });
  await form.getByLabel("WebDAV URL").fill(davUrl);
  await form.getByLabel("User name").fill(USER);
  await form.getByLabel("Password or app password").fill(PASSWORD);
  await form.getByLabel("Name (optional)").fill("Loopback DAV");
  await form.getByRole("button", { name: "Add drive" }).click();
  const files = page.getByRole("region", { name: "Files" });
  await files.getByText("This folder is empty").waitFor();
  expect(readFileSync(join(server.dataDir, "drives.toml"), "utf8")).not.toContain(PASSWORD);

  // A new folder; a bad name is refused in the page before any request.
  await files.getByRole("button", { name: "New folder" }).click();
  const dialog = page.getByRole("dialog", { name: "New folder" });
  await dialog.getByLabel("Name").fill("..");
  expect(await dialog.getByRole("button", { name: "Make" }).isDisabled()).toBe(true);
  await dialog.getByLabel("Name").fill("Reports");
  await dialog.getByRole("button", { name: "Make" }).click();
  await files.getByRole("button", { name: "Reports" }).click();
  const crumbs = page.getByRole("navigation", { name: "Folder path" });
  await crumbs.getByText("Reports").waitFor();

  // Upload by the picker: a 20 MB file, its progress shown, then on the server's disk.
  const big = Buffer.alloc(20 * 1000 * 1000, 7);
  await page
    .getByLabel("Files to upload")
    .setInputFiles({ name: "big.bin", mimeType: "application/octet-stream", buffer: big });
  const uploads = page.getByRole("list", { name: "Uploads" });
  await uploads.getByText(/Uploaded, 20 MB/).waitFor({ timeout: 60_000 });
  expect(readFileSync(join(share, "Reports/big.bin")).length).toBe(big.length);

  // Upload by dropping a file on the page.
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["dropped text\n"], "notes.txt", { type: "text/plain" }));
    return transfer;
  });
  await files.dispatchEvent("dragover", { dataTransfer: dropped });
  await files.dispatchEvent("drop", { dataTransfer: dropped });
  await uploads.getByText(/Uploaded, 13 bytes/).waitFor();
  await files.getByRole("link", { name: "notes.txt" }).waitFor();
  expect(readFileSync(join(share, "Reports/notes.txt"), "utf8")).toBe("dropped text\n");

  // Download: the file's own bytes.
  const downloading = page.waitForEvent("download");
  await files.getByRole("link", { name: "notes.txt" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("notes.txt");
  expect(readFileSync(await download.path(), "utf8")).toBe("dropped text\n");

  // Rename, then move up to the root, then delete after the confirm.
  const row = (name: string) => files.getByRole("row").filter({ hasText: name });
  await row("notes.txt").getByRole("button", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename notes.txt" });
  await rename.getByLabel("New name").fill("minutes.txt");
  await rename.getByRole("button", { name: "Save" }).click();
  await files.getByRole("link", { name: "minutes.txt" }).waitFor();
  expect(existsSync(join(share, "Reports/minutes.txt"))).toBe(true);
  await row("minutes.txt").getByRole("button", { name: "Move" }).click();
  const move = page.getByRole("dialog", { name: "Move minutes.txt" });
  await move.getByLabel("To (a path on this drive)").fill("/minutes.txt");
  await move.getByRole("button", { name: "Save" }).click();
  await expect.poll(() => existsSync(join(share, "minutes.txt"))).toBe(true);
  await row("big.bin").getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete big.bin?" });
  await confirm.getByText(/WebDAV has no trash/).waitFor();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect.poll(() => existsSync(join(share, "Reports/big.bin"))).toBe(false);
  await crumbs.getByRole("button", { name: "Loopback DAV" }).click();
  await files.getByRole("link", { name: "minutes.txt" }).waitFor();

  const shots = process.env.DRIVE_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "drive-shots-"));
  expect(await everyLook(server, page, "drive", shots)).toEqual({});
  expect(errors).toEqual([]);
  await context.close();
});
