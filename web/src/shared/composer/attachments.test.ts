import { describe, expect, it } from "vitest";
import type { Attachment } from "../api/types.generated";
import {
  added,
  displayName,
  failed,
  imageFiles,
  MAX_IMAGE_BYTES,
  readyIds,
  refusal,
  removed,
  uploaded,
  uploading,
  type Chip,
} from "./attachments";

const kept: Attachment = { id: "a".repeat(64), path: "/d/attachments/a.png", mediaType: "image/png", size: 10 };

describe("a file to attach", () => {
  it("is a PNG, JPEG, GIF or WebP image of at most 10 MiB", () => {
    expect(refusal({ name: "s.png", type: "image/png", size: 10 })).toBeNull();
    expect(refusal({ name: "s.webp", type: "image/webp", size: MAX_IMAGE_BYTES })).toBeNull();
    expect(refusal({ name: "a.pdf", type: "application/pdf", size: 10 })).toMatch(/not a PNG/);
    expect(refusal({ name: "s.svg", type: "image/svg+xml", size: 10 })).toMatch(/not a PNG/);
    expect(refusal({ name: "big.png", type: "image/png", size: MAX_IMAGE_BYTES + 1 })).toMatch(/10 MiB/);
    expect(refusal({ name: "e.png", type: "image/png", size: 0 })).toMatch(/empty/);
  });

  it("is picked out of what was pasted or dropped, and a screenshot gets a name", () => {
    const files = [
      { name: "notes.txt", type: "text/plain" },
      { name: "image.png", type: "image/png" },
      { name: "", type: "image/jpeg" },
    ];
    expect(imageFiles(files).map((f) => f.type)).toEqual(["image/png", "image/jpeg"]);
    expect(displayName(files[1]!, 0)).toBe("pasted-image-1.png");
    expect(displayName(files[2]!, 1)).toBe("pasted-image-2.jpg");
    expect(displayName({ name: "shot.gif", type: "image/gif" }, 0)).toBe("shot.gif");
  });
});

describe("the chips", () => {
  it("follow an upload from start to kept, failed or removed", () => {
    let chips: Chip[] = [];
    chips = added(chips, "1", "a.png");
    chips = added(chips, "2", "b.png");
    expect(uploading(chips)).toBe(true);
    expect(readyIds(chips)).toEqual([]);
    chips = uploaded(chips, "1", kept);
    chips = failed(chips, "2", "too large");
    expect(uploading(chips)).toBe(false);
    expect(readyIds(chips)).toEqual([kept.id]);
    expect(chips[1]).toEqual({ key: "2", name: "b.png", state: "failed", error: "too large" });
    chips = removed(chips, "1");
    expect(readyIds(chips)).toEqual([]);
    expect(chips.map((c) => c.key)).toEqual(["2"]);
  });
});
