/**
 * The `/` menu under (or over) the composer: a listbox of the engine's skills, each with its name
 * as it will be inserted, its argument hint, its description and where it comes from. The box
 * keeps the focus and points at the active option (`aria-activedescendant`), so typing goes on
 * while the menu filters. An engine that lists nothing shows one quiet line with the reason on
 * hover.
 */
import { useEffect, useRef } from "react";
import { SCOPE_WORDS, type Skill } from "./skills";

interface Props {
  id: string;
  placement: "above" | "below";
  skills: readonly Skill[];
  active: number;
  loading: boolean;
  reason: string | null;
  onPick(skill: Skill): void;
}

export function SkillMenu({ id, placement, skills, active, loading, reason, onPick }: Props) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.querySelector(`[aria-selected="true"]`)?.scrollIntoView({ block: "nearest" });
  }, [active, skills]);
  const where = `skill-menu skill-menu-${placement}`;
  if (skills.length === 0) {
    return (
      <p className={`${where} skill-menu-quiet muted`} title={loading ? undefined : (reason ?? undefined)}>
        {loading ? "Loading skills…" : "This engine offers no skills here"}
      </p>
    );
  }
  return (
    <ul ref={list} className={where} id={id} role="listbox" aria-label="Skills">
      {skills.map((skill, i) => (
        <li
          key={`${skill.scope}:${skill.name}`}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          className={i === active ? "skill-option skill-option-active" : "skill-option"}
          // The box keeps the focus: a press picks without blurring it.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(skill);
          }}
        >
          <span className="skill-line">
            <code className="skill-name">{skill.insert}</code>
            {skill.argumentHint && <span className="skill-hint muted">{skill.argumentHint}</span>}
            <span className="skill-scope muted">{SCOPE_WORDS[skill.scope]}</span>
          </span>
          {skill.error ? (
            <span className="skill-description skill-error">Its file cannot be read: {skill.error}</span>
          ) : (
            skill.description && <span className="skill-description muted">{skill.description}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
