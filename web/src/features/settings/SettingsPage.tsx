/**
 * `/settings`: every key of `GET /settings`, named, grouped and described in plain words by the
 * generated catalog. The keys this version acts on are listed by section; those it does not (not
 * built yet, a desktop app's, Windows') wait behind a switch, in one group per reason. Each change
 * is sent at once, save the few that ask first (`confirmations.ts`); a refusal is shown beside the
 * field and the stored value stays. A navigation lists the sections; `#<pane>` in the address
 * scrolls to that section (see `panes.ts`).
 */
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { ConfirmDialog } from "../../shared/ui/Dialog";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { confirmationFor, type Confirmation } from "./confirmations";
import { RestartButton } from "./RestartButton";
import { UtilitySpend } from "./UtilitySpend";
import { PushDevices } from "./PushDevices";
import { FeedbackBox } from "./FeedbackBox";
import { BalanceWatch } from "./BalanceWatch";
import { AlarmWords } from "./AlarmWords";
import { fieldFor, optionLabel, parseField, textOf, type Field } from "./settingFields";
import { useSettings } from "../../shared/settings";
import { useHash } from "../../shared/router";
import { paneFor, paneOf, settingKeyOf } from "./panes";
import { GUARDED_BADGE, GUARDED_TOOLTIP, rowText } from "./rowText";
import {
  DEFINITIONS,
  NO_EFFECT_PANE,
  NO_EFFECT_TITLE,
  noEffectCount,
  settingsView,
  type NavArea,
  type NoEffectGroup,
} from "./sections";
import "./settings.css";
import { EmptyState } from "../../shared/ui/EmptyState";

/** The section whose caps the utility model's spend today is read against. */
const SPEND_PANE = "sessions-agents-analysis-and-cost";
/** The section of `contentFreeMobilePush`, where this device subscribes to pushes. */
const PUSH_PANE = paneOf("Inbox & Notifications", "inbox behaviour and notices");
const ALARMS_PANE = paneOf("Inbox & Notifications", "alarms");
const DIAGNOSTICS_PANE = paneOf("Inbox & Notifications", "diagnostics and bugs");

export function SettingsPage() {
  const { values, error, update } = useSettings();
  const [filter, setFilter] = useState("");
  const [showNoEffect, setShowNoEffect] = useState(false);
  const needle = useDeferredValue(filter.trim().toLowerCase());
  const keys = useMemo(() => Object.keys(values ?? {}), [values]);
  const view = useMemo(() => settingsView(keys, needle, showNoEffect), [keys, needle, showNoEffect]);
  const hidden = useMemo(() => noEffectCount(keys), [keys]);
  const hash = useHash();
  const targetKey = settingKeyOf(hash, DEFINITIONS);
  const pane = targetKey
    ? view.sections.find((section) => section.keys.includes(targetKey))?.pane
    : paneFor(hash, view.panes);
  // The list follows the filter a render late (deferred): a section chosen just after the filter
  // changed is scrolled to once the list has caught up, or rows drawn after would push it away.
  const settled = needle === filter.trim().toLowerCase();
  const scrolledTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!pane) {
      scrolledTo.current = undefined;
      return;
    }
    const target = targetKey ?? pane;
    if (!settled || scrolledTo.current === target) return;
    scrolledTo.current = target;
    if (targetKey) scrollToSetting(targetKey);
    else scrollToPane(pane);
  }, [pane, targetKey, settled]);

  if (error !== undefined) return <ErrorNote error={error} />;
  if (!values) return <Loading what="settings" />;

  const empty = view.sections.length === 0 && view.noEffect.length === 0;
  return (
    <section className="page settings-page">
      <header className="page-head">
        <h1>Settings</h1>
        <RestartButton />
      </header>
      <div className="settings-toolbar">
        <input
          type="search"
          aria-label="Filter settings"
          placeholder="Filter settings"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <label className="settings-stored-only">
          <input type="checkbox" checked={showNoEffect} onChange={(e) => setShowNoEffect(e.target.checked)} />
          Show settings that have no effect yet ({hidden})
        </label>
      </div>
      <div className="settings-body">
        {view.nav.length > 0 && <SectionNav areas={view.nav} current={pane} />}
        <div className="settings-sections">
          {view.sections.map((section) => (
            <section
              key={section.title}
              className="settings-section"
              aria-label={section.title}
              data-pane={section.pane}
            >
              <h2>{section.title}</h2>
              {section.pane === SPEND_PANE && <UtilitySpend />}
              {section.pane === PUSH_PANE && <PushDevices />}
              {section.pane === PUSH_PANE && <BalanceWatch />}
              {section.pane === ALARMS_PANE && <AlarmWords />}
              {section.pane === DIAGNOSTICS_PANE && <FeedbackBox />}
              <div className="settings-list">
                {section.keys.map((key) => (
                  <SettingRow
                    key={key}
                    settingKey={key}
                    value={values[key]}
                    onSave={update}
                    targeted={key === targetKey}
                  />
                ))}
              </div>
            </section>
          ))}
          {view.noEffect.length > 0 && <NoEffectSection groups={view.noEffect} values={values} onSave={update} />}
          {empty && <EmptyState>No setting matches.</EmptyState>}
        </div>
      </div>
    </section>
  );
}

/** The settings this version does nothing with, under why: shown only when asked for. */
function NoEffectSection({
  groups,
  values,
  onSave,
}: {
  groups: readonly NoEffectGroup[];
  values: Record<string, unknown>;
  onSave: RowProps["onSave"];
}) {
  return (
    <section className="settings-section settings-no-effect" aria-label={NO_EFFECT_TITLE} data-pane={NO_EFFECT_PANE}>
      <h2>{NO_EFFECT_TITLE}</h2>
      <p className="muted">Switchboard keeps these values, but changing one does nothing in this version.</p>
      {groups.map((group) => (
        <section key={group.reason} className="settings-no-effect-group" aria-label={group.title}>
          <h3>{group.title}</h3>
          {group.detail && <p className="setting-no-effect-reason">{group.detail}</p>}
          <div className="settings-list">
            {group.keys.map((key) => (
              <SettingRow key={key} settingKey={key} value={values[key]} onSave={onSave} noEffect />
            ))}
          </div>
        </section>
      ))}
    </section>
  );
}

function scrollToPane(pane: string) {
  document.querySelector(`[data-pane="${pane}"]`)?.scrollIntoView({ block: "start" });
}

/** A setting named in the address: its row in the middle of the view, its field focused. */
function scrollToSetting(key: string) {
  const row = document.querySelector(`[data-setting="${CSS.escape(key)}"]`);
  row?.scrollIntoView({ block: "center" });
  row?.querySelector<HTMLElement>("input, select, textarea, button")?.focus({ preventScroll: true });
}

/**
 * The sections listed under the current filter: links in a column beside the list on a wide
 * window, a menu above it on a narrow one (the stylesheet shows one or the other). Both set the
 * address's `#<pane>`, which scrolls there.
 */
function SectionNav({ areas, current }: { areas: readonly NavArea[]; current: string | undefined }) {
  const link = (title: string, pane: string) => (
    <a
      href={`#${pane}`}
      aria-current={pane === current ? "true" : undefined}
      onClick={() => {
        // The address does not change when it already names this pane, so nothing else scrolls.
        if (window.location.hash === `#${pane}`) scrollToPane(pane);
      }}
    >
      {title}
    </a>
  );
  return (
    <nav className="settings-nav" aria-label="Settings sections">
      <ul className="settings-nav-links">
        {areas.map((area) => (
          <li key={area.pane}>
            {link(area.title, area.pane)}
            {area.sections.length > 0 && (
              <ul>
                {area.sections.map((section) => (
                  <li key={section.pane}>{link(section.title, section.pane)}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <select
        className="settings-nav-menu"
        aria-label="Go to section"
        value={current ?? ""}
        onChange={(e) => {
          if (e.target.value) window.location.hash = e.target.value;
        }}
      >
        <option value="">Go to section…</option>
        {areas.map((area) =>
          area.sections.length === 0 ? (
            <option key={area.pane} value={area.pane}>
              {area.title}
            </option>
          ) : (
            <optgroup key={area.pane} label={area.title}>
              {area.sections.map((section) => (
                <option key={section.pane} value={section.pane}>
                  {section.title}
                </option>
              ))}
            </optgroup>
          ),
        )}
      </select>
    </nav>
  );
}

interface RowProps {
  settingKey: string;
  value: unknown;
  onSave: (key: string, value: unknown) => Promise<unknown>;
  /** A row of the no-effect group, whose heading says why. */
  noEffect?: boolean;
  /** The setting the address names: marked so the eye finds it. */
  targeted?: boolean;
}

const SettingRow = memo(function SettingRow({
  settingKey,
  value,
  onSave,
  noEffect = false,
  targeted = false,
}: RowProps) {
  const definition = DEFINITIONS.get(settingKey);
  const text = rowText(settingKey, definition);
  const field = fieldFor(definition, value);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [asking, setAsking] = useState<{ next: unknown; confirmation: Confirmation } | null>(null);
  const id = `setting-${settingKey}`;

  const save = async (next: unknown) => {
    setProblem(null);
    setSaving(true);
    try {
      await onSave(settingKey, next);
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  // A change that cuts something off waits for the user's yes; a controlled field shows the
  // stored value meanwhile, so Cancel leaves it as it was.
  const request = (next: unknown) => {
    const confirmation = confirmationFor(settingKey, next);
    if (confirmation) setAsking({ next, confirmation });
    else void save(next);
  };

  return (
    <div
      className={`setting-row${noEffect ? " setting-stored-only" : ""}${targeted ? " setting-targeted" : ""}`}
      data-setting={settingKey}
    >
      <div className="setting-label">
        <div className="setting-name">
          <label htmlFor={id} title={text.keyTitle}>
            {definition ? text.label : <code>{text.label}</code>}
          </label>
          {text.guarded && (
            <span className="setting-badge" title={GUARDED_TOOLTIP}>
              {GUARDED_BADGE}
            </span>
          )}
        </div>
        {text.summary && <span className="setting-description">{text.summary}</span>}
        {text.effect && <span className="setting-effect">{text.effect}</span>}
      </div>
      <div className="setting-control">
        <Control
          id={id}
          field={field}
          value={value}
          disabled={saving || definition?.readOnly === true}
          onSave={request}
          onInvalid={setProblem}
        />
        {definition && field.kind !== "toggle" && field.kind !== "select" && (
          <span className="muted setting-accepted">Takes {definition.accepted}.</span>
        )}
        {problem && (
          <p className="inline-error" role="alert">
            {problem}
          </p>
        )}
      </div>
      {asking && (
        <ConfirmDialog
          title={asking.confirmation.title}
          confirmLabel={asking.confirmation.confirmLabel}
          onConfirm={() => {
            setAsking(null);
            void save(asking.next);
          }}
          onClose={() => setAsking(null)}
        >
          <p>{asking.confirmation.message}</p>
        </ConfirmDialog>
      )}
    </div>
  );
});

interface ControlProps {
  id: string;
  field: Field;
  value: unknown;
  disabled: boolean;
  onSave: (value: unknown) => void;
  onInvalid: (reason: string) => void;
}

function Control({ id, field, value, disabled, onSave, onInvalid }: ControlProps) {
  switch (field.kind) {
    case "toggle":
      // The wrapping label holds nothing to read: it only widens what a finger may press.
      return (
        <label className="setting-toggle">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            disabled={disabled}
            onChange={(e) => onSave(e.target.checked)}
          />
        </label>
      );
    case "select":
      return (
        <select
          id={id}
          value={String(value)}
          disabled={disabled}
          onChange={(e) => onSave(parseField(field, e.target.value))}
        >
          {field.options.map((o) => (
            <option key={o} value={String(o)}>
              {optionLabel(o)}
            </option>
          ))}
        </select>
      );
    default:
      return (
        <TextControl
          key={textOf(field, value)}
          id={id}
          field={field}
          value={value}
          onSave={onSave}
          onInvalid={onInvalid}
        />
      );
  }
}

/** Text, number and JSON fields save when left or on Enter (Ctrl+Enter for JSON), not on each key. */
function TextControl({ id, field, value, onSave, onInvalid }: Omit<ControlProps, "disabled">) {
  const initial = textOf(field, value);
  const [text, setText] = useState(initial);
  const commit = () => {
    if (text === initial) return;
    try {
      onSave(parseField(field, text));
    } catch (e) {
      onInvalid(errorMessage(e));
    }
  };
  if (field.kind === "json") {
    return (
      <textarea
        id={id}
        rows={Math.min(6, initial.split("\n").length)}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) commit();
        }}
      />
    );
  }
  const number = field.kind === "number" ? field : undefined;
  return (
    <input
      id={id}
      type={number ? "number" : "text"}
      min={number?.min}
      max={number?.max}
      step={number ? (number.integer ? 1 : "any") : undefined}
      maxLength={field.kind === "text" ? field.maxLength : undefined}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit();
      }}
    />
  );
}
