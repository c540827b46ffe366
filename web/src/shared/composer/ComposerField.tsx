/**
 * The text box every composer shares (the new-session prompt, the session page's follow-up, the
 * reply boxes where a question shows), with what the composer settings add to it:
 * `skillSlashAutocomplete` opens the engine's skills on a `/` at the start (arrows move, Enter or
 * Tab picks, Escape closes; a word no skill matches closes it, so a `/path` is typed and sent as
 * it is); `pasteRichTextAsMarkdown` turns pasted HTML into Markdown; `docImportEnabled` turns a
 * pasted link into the document's text, unless Shift was held, and keeps the link with the reason
 * when it cannot.
 */
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type RefObject,
  type TextareaHTMLAttributes,
} from "react";
import { errorMessage } from "../api/errorMessage";
import { useSettingValues } from "../settings";
import { importUrl, loadSkills, type SkillSource } from "./api";
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
    <div className={className ? `composer-field ${className}` : "composer-field"}>
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
      {pasted && (
        <p className="composer-paste-note muted" role="status">
          {pasted.error === null ? `Importing ${pasted.url}…` : `Kept the link as it is: ${pasted.error}`}
        </p>
      )}
    </div>
  );
}
