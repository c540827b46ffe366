/**
 * A note or a drip item as the pages show it. Markdown is rendered by react-markdown, which
 * renders no raw HTML. An HTML item goes only into a frame whose `sandbox` allows nothing (no
 * scripts, no same origin: an opaque origin without the app's cookie, storage or pages), loaded
 * from the preview route, whose own policy allows no request anywhere. With
 * `dripHtmlPreviewEnabled` off an HTML item is a plain chip: its name, never its markup.
 */
import { SETTING_LINKS } from "../../shared/settingLinks";
import { SettingLink } from "../../shared/ui/SettingLink";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import type { DripItem } from "../../shared/api/types.generated";
import { itemView, previewPath } from "./drips";
import { Pill } from "../../shared/ui/Pill";

const PLUGINS = [remarkGfm];

/** Markdown, rendered without raw HTML. */
export function MarkdownNote({ markdown }: { markdown: string }) {
  return (
    <div className="drip-markdown">
      <Markdown remarkPlugins={PLUGINS}>{markdown}</Markdown>
    </div>
  );
}

interface Props {
  dripId: string;
  item: DripItem;
  /** The item's text; not needed (nor read) for a framed or chipped HTML item. */
  content: string | undefined;
  previewsOn: boolean;
}

export function ItemPreview({ dripId, item, content, previewsOn }: Props) {
  switch (itemView(item.kind, previewsOn)) {
    case "frame":
      return (
        <iframe
          className="drip-frame"
          title={`Preview of ${item.name}`}
          sandbox=""
          referrerPolicy="no-referrer"
          src={previewPath(dripId, item.id)}
        />
      );
    case "chip":
      return (
        <p className="drip-chip" data-kind="html">
          <Pill>HTML</Pill> {item.name}
          <span className="muted">
            {" "}
            · previews are off (<SettingLink setting={SETTING_LINKS.dripHtmlPreviewEnabled} />)
          </span>
        </p>
      );
    case "markdown":
      return content === undefined ? null : <MarkdownNote markdown={content} />;
    case "text":
      return content === undefined ? null : <pre className="drip-text">{content}</pre>;
  }
}
