/** The tab's icon with the count drawn on it (a canvas), and back to the shipped icon at 0. */

let original: string | null = null;

function iconLink(): HTMLLinkElement {
  let link = document.querySelector<HTMLLinkElement>("link[rel~='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.href = "/favicon.svg";
    document.head.appendChild(link);
  }
  return link;
}

/** Draws the badge: a red disc with the count over a plain tile, as a PNG data URL. */
function drawBadge(count: number): string | null {
  const canvas = document.createElement("canvas");
  canvas.width = 64;
  canvas.height = 64;
  const g = canvas.getContext("2d");
  if (!g) return null;
  g.fillStyle = "#3b5bdb";
  g.beginPath();
  g.roundRect(4, 4, 56, 56, 12);
  g.fill();
  g.fillStyle = "#e03131";
  g.beginPath();
  g.arc(40, 24, 22, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = "#ffffff";
  g.font = "bold 26px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(count > 99 ? "99" : String(count), 40, 25);
  return canvas.toDataURL("image/png");
}

export function setIconCount(count: number): void {
  const link = iconLink();
  if (original === null) {
    original = link.getAttribute("href") ?? "/favicon.svg";
    link.dataset.type = link.type;
  }
  if (count <= 0) {
    link.type = link.dataset.type ?? "image/svg+xml";
    link.href = original;
    return;
  }
  const drawn = drawBadge(count);
  if (!drawn) return;
  link.type = "image/png";
  link.href = drawn;
}
