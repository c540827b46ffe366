/**
 * Export: the grid as it looks to a PNG file (html-to-image, loaded on first use), and
 * print-to-PDF through the browser's print dialog with the print stylesheet.
 */

export function fileName(name: string, extension: string): string {
  const base =
    name
      .trim()
      .replace(/[^\p{L}\p{N}._ -]+/gu, "")
      .replace(/\s+/g, "-") || "dashboard";
  return `${base}.${extension}`;
}

export async function exportPng(element: HTMLElement, name: string): Promise<void> {
  const { toPng } = await import("html-to-image");
  const dataUrl = await toPng(element, {
    backgroundColor: getComputedStyle(document.body).backgroundColor || "#ffffff",
    pixelRatio: Math.min(2, window.devicePixelRatio || 1),
    // Resize handles are editing chrome, not part of the picture.
    filter: (node) => !(node instanceof HTMLElement && node.classList.contains("react-resizable-handle")),
  });
  const link = document.createElement("a");
  link.href = dataUrl;
  link.download = fileName(name, "png");
  document.body.appendChild(link);
  link.click();
  link.remove();
}

export function printDashboard(): void {
  window.print();
}
