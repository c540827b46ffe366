/**
 * Images attached in the composer (docs/attachments.md): which files are taken, and the chips'
 * list as uploads start, finish, fail and are removed. Pure: the upload itself is `api.ts`'s.
 */
import type { Attachment } from "../api/types.generated";

/** The types the server keeps; anything else is refused here with the same words. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** The server's ceiling, 10 MiB. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** One chip: an image being uploaded, kept (with its id), or refused (with the reason). */
export type Chip =
  | { key: string; name: string; state: "uploading" }
  | { key: string; name: string; state: "ready"; attachment: Attachment }
  | { key: string; name: string; state: "failed"; error: string };

/** What a file needs to be to be sent at all: the reason it is refused, or null. */
export function refusal(file: { name: string; type: string; size: number }): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return `${file.name || "The file"} is not a PNG, JPEG, GIF or WebP image.`;
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return `${file.name || "The image"} is larger than 10 MiB.`;
  }
  if (file.size === 0) return `${file.name || "The image"} is empty.`;
  return null;
}

/** The image files among what was pasted or dropped (a pasted screenshot has no name: it gets one). */
export function imageFiles<F extends { name: string; type: string }>(files: ArrayLike<F>): F[] {
  return Array.from(files).filter((file) => file.type.startsWith("image/"));
}

/** A pasted screenshot's name, which the clipboard leaves as "image.png" or empty. */
export function displayName(file: { name: string; type: string }, index: number): string {
  if (file.name && file.name !== "image.png") return file.name;
  const extension = file.type.split("/")[1] ?? "png";
  return `pasted-image-${index + 1}.${extension === "jpeg" ? "jpg" : extension}`;
}

export const added = (chips: Chip[], key: string, name: string): Chip[] => [
  ...chips,
  { key, name, state: "uploading" },
];

export const uploaded = (chips: Chip[], key: string, attachment: Attachment): Chip[] =>
  chips.map((chip) => (chip.key === key ? { key, name: chip.name, state: "ready", attachment } : chip));

export const failed = (chips: Chip[], key: string, error: string): Chip[] =>
  chips.map((chip) => (chip.key === key ? { key, name: chip.name, state: "failed", error } : chip));

export const removed = (chips: Chip[], key: string): Chip[] => chips.filter((chip) => chip.key !== key);

/** The ids a send carries: the kept images, never a failed one. */
export const readyIds = (chips: Chip[]): string[] =>
  chips.flatMap((chip) => (chip.state === "ready" ? [chip.attachment.id] : []));

/** A send waits for every upload to end. */
export const uploading = (chips: Chip[]): boolean => chips.some((chip) => chip.state === "uploading");
