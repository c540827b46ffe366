/**
 * The text box every composer shares (the new-session prompt, the session page's follow-up, the
 * reply boxes where a question shows), with what the composer settings add to it:
 * `skillSlashAutocomplete` opens the engine's skills on a `/` at the start (arrows move, Enter or
 * Tab picks, Escape closes; a word no skill matches closes it, so a `/path` is typed and sent as
 * it is); `pasteRichTextAsMarkdown` turns pasted HTML into Markdown; `docImportEnabled` turns a
 * pasted link into the document's text, unless Shift was held, and keeps the link with the reason
 * when it cannot. Given `onAttachments`, it also takes images (docs/attachments.md): the attach
 * button, a pasted image, or one dropped on it, each uploaded at once and shown as a chip with its
 * name, a remove ×, and the reason when it was refused.
 */
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  type RefObject,
  type TextareaHTMLAttributes,
} from "react";
import { errorMessage } from "../api/errorMessage";
import { useSettingValues } from "../settings";
import { importUrl, loadSkills, uploadAttachment, type SkillSource } from "./api";
import {
  added,
  displayName,
  failed,
  IMAGE_TYPES,
  imageFiles,
  refusal,
  removed,
  uploaded,
  type Chip,
} from "./attachments";
import "./composer.css";
import { htmlToMarkdown } from "./htmlToMarkdown";
import { insertAt, loneUrl, replaceUrl } from "./paste";
import { SkillMenu } from "./SkillMenu";
import { matchSkills, moveActive, pickSkill, slashQuery, type Skill, type SkillList } from "./skills";

type Passed = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange" | "onPaste" | "ref">;

interface Props extends Passed {
  value: string;
  onValue(text: string): void;
  /** Whose skills the `/` menu lists; null where there is no engine to ask yet. */
  skills: SkillSource | null;
  /** The menu opens above the box at the foot of a page, below it elsewhere. */
  menuPlacement?: "above" | "below";
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  /** The images attached so far; with `onAttachments`, the box takes images. */
  attachments?: Chip[];
  onAttachments?(update: (chips: Chip[]) => Chip[]): void;
}

/** A pasted link being imported, or why it could not be. */
type Import = { url: string; error: string | null };

export function ComposerField({
  value,
  onValue,
  skills,
  menuPlacement = "below",
  inputRef,
  onKeyDown,
  className,
  attachments = [],
  onAttachments,
  ...rest
}: Props) {
  const settings = useSettingValues();
  const slashOn = settings?.skillSlashAutocomplete !== false && skills !== null;
  const richPaste = settings?.pasteRichTextAsMarkdown !== false;
  const docImport = settings?.docImportEnabled !== false;

  const own = useRef<HTMLTextAreaElement | null>(null);
  const box = inputRef ?? own;
  // The text as last drawn, for an import that arrives after more typing.
  const latest = useRef(value);
  useLayoutEffect(() => {
    latest.current = value;
  }, [value]);
  const pendingCaret = useRef<number | null>(null);
  const shiftHeld = useRef(false);
  const [caret, setCaret] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState({ query: "", index: 0 });
  const [list, setList] = useState<{ key: string; list: SkillList } | null>(null);
  const [pasted, setPasted] = useState<Import | null>(null);
  const menuId = useId();
  const fileInput = useRef<HTMLInputElement | null>(null);
  const uploads = useRef(0);

  const attach = (files: File[]) => {
    if (!onAttachments) return;
    files.forEach((file, index) => {
      uploads.current += 1;
      const key = `upload-${uploads.current}`;
      onAttachments((chips) => added(chips, key, displayName(file, index)));
      const refused = refusal(file);
      if (refused) {
        onAttachments((chips) => failed(chips, key, refused));
        return;
      }
      uploadAttachment(file).then(
        (attachment) => onAttachments((chips) => uploaded(chips, key, attachment)),
        (error: unknown) => onAttachments((chips) => failed(chips, key, errorMessage(error))),
      );
    });
  };

  const dragOver = (event: DragEvent<HTMLDivElement>) => {
    if (onAttachments && event.dataTransfer.types.includes("Files")) event.preventDefault();
  };

  // Every dropped file gets a chip: one that is not an image shows why it was not taken.
  const drop = (event: DragEvent<HTMLDivElement>) => {
    if (!onAttachments || event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    attach(Array.from(event.dataTransfer.files));
  };

  const query = slashOn ? slashQuery(value, caret) : null;
  // Escape closes the menu for this `/word`; starting another one opens it again.
  if (dismissed && query === null) setDismissed(false);
  const sourceKey = skills === null ? "" : JSON.stringify(skills);
  const shown = list !== null && list.key === sourceKey ? list.list : null;
  const matches: Skill[] = query !== null && shown ? matchSkills(shown.skills, query) : [];
  const open = query !== null && !dismissed && (query === "" || matches.length > 0);
  const index = active.query === query ? Math.min(active.index, Math.max(0, matches.length - 1)) : 0;

  useEffect(() => {
    if (!open || skills === null || shown !== null) return;
    let current = true;
    void loadSkills(skills).then((loaded) => {
      if (current) setList({ key: sourceKey, list: loaded });
    });
    return () => {
      current = false;
    };
  }, [open, skills, sourceKey, shown]);

  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !box.current) return;
    pendingCaret.current = null;
    box.current.setSelectionRange(at, at);
    setCaret(at);
  }, [value, box]);

  // A sent message empties the box: a note about an earlier paste no longer belongs to it.
  if (value === "" && pasted?.error) setPasted(null);

  const replace = (next: { text: string; caret: number }) => {
    pendingCaret.current = next.caret;
    onValue(next.text);
  };

  const pick = (skill: Skill) => {
    replace(pickSkill(value, skill));
    setDismissed(true);
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    shiftHeld.current = event.shiftKey;
    if (open && !event.nativeEvent.isComposing) {
      const choice = matches[index];
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        setDismissed(true);
        return;
      }
      if ((event.key === "ArrowDown" || event.key === "ArrowUp") && matches.length > 0) {
        event.preventDefault();
        setActive({ query: query ?? "", index: moveActive(index, event.key === "ArrowDown" ? 1 : -1, matches.length) });
        return;
      }
      if (choice && ((event.key === "Enter" && !event.shiftKey) || (event.key === "Tab" && !event.shiftKey))) {
        event.preventDefault();
        pick(choice);
        return;
      }
    }
    onKeyDown?.(event);
  };

  const put = (element: HTMLTextAreaElement, insertion: string) =>
    replace(insertAt(latest.current, element.selectionStart, element.selectionEnd, insertion));

  const startImport = (url: string) => {
    setPasted({ url, error: null });
    importUrl(url).then(
      (document) => {
        const next = replaceUrl(latest.current, url, document);
        if (next !== null) onValue(next);
        setPasted(null);
      },
      (error: unknown) => setPasted({ url, error: errorMessage(error) }),
    );
  };

  const paste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = onAttachments ? imageFiles(event.clipboardData.files) : [];
    if (images.length > 0) {
      event.preventDefault();
      attach(images);
      return;
    }
    const plain = event.clipboardData.getData("text/plain");
    const url = docImport && !shiftHeld.current ? loneUrl(plain) : null;
    if (url) {
      event.preventDefault();
      put(event.currentTarget, url);
      startImport(url);
      return;
    }
    const html = richPaste ? event.clipboardData.getData("text/html") : "";
    const markdown = html ? htmlToMarkdown(html) : "";
    if (markdown) {
      event.preventDefault();
      put(event.currentTarget, markdown);
    }
  };

  const activeId = open && matches.length > 0 ? `${menuId}-${index}` : undefined;
  return (
    <div className={className ? `composer-field ${className}` : "composer-field"} onDragOver={dragOver} onDrop={drop}>
      <textarea
        {...rest}
        ref={box}
        value={value}
        onChange={(e) => {
          setCaret(e.target.selectionStart);
          onValue(e.target.value);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={keyDown}
        onKeyUp={(e) => {
          shiftHeld.current = e.shiftKey;
        }}
        onBlur={() => {
          shiftHeld.current = false;
        }}
        onPaste={paste}
        aria-autocomplete={slashOn ? "list" : undefined}
        aria-controls={activeId ? menuId : undefined}
        aria-activedescendant={activeId}
      />
      {open && (
        <SkillMenu
          id={menuId}
          placement={menuPlacement}
          skills={matches}
          active={index}
          loading={shown === null}
          reason={shown?.reason ?? null}
          onPick={pick}
        />
      )}
      {onAttachments && (
        <div className="composer-attachments">
          <button
            type="button"
            className="composer-attach"
            disabled={rest.disabled}
            onClick={() => fileInput.current?.click()}
          >
            Attach image
          </button>
          <input
            ref={fileInput}
            type="file"
            accept={IMAGE_TYPES.join(",")}
            multiple
            hidden
            onChange={(event) => {
              attach(Array.from(event.target.files ?? []));
              event.target.value = "";
            }}
          />
          {attachments.length > 0 && (
            <ul className="attachment-chips" aria-label="Attached images">
              {attachments.map((chip) => (
                <li key={chip.key} className={`attachment-chip attachment-${chip.state}`}>
                  <span className="attachment-name">{chip.name}</span>
                  {chip.state === "uploading" && <span className="muted">uploading…</span>}
                  {chip.state === "failed" && (
                    <span className="attachment-error" role="alert">
                      {chip.error}
                    </span>
                  )}
                  <button
                    type="button"
                    className="attachment-remove"
                    aria-label={`Remove ${chip.name}`}
                    onClick={() => onAttachments((chips) => removed(chips, chip.key))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {pasted && (
        <p className="composer-paste-note muted" role="status">
          {pasted.error === null ? `Importing ${pasted.url}…` : `Kept the link as it is: ${pasted.error}`}
        </p>
      )}
    </div>
  );
}
