/**
 * Drips (`/drips`, `/drips/<id>`, docs/automations.md): queues released to the inbox one item at a
 * time on a cadence. The list says each drip's state (active, paused, exhausted, its folder
 * unreadable) and its queue; choosing one shows its items in order, with each item's content
 * (HTML in a sandboxed frame, or a plain chip while previews are off) and, for a drip fed in the
 * app, a form that adds items. New drip makes one from a folder or for items added here. Shown
 * while `dripEnabled` is on; `dripGlobalPause` is said at the top while it holds every release.
 */
import { SETTING_LINKS } from "../../shared/settingLinks";
import { SettingLink } from "../../shared/ui/SettingLink";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { useState, type FormEvent } from "react";
import type { Drip } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { Link, navigate } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useNow } from "../../shared/useNow";
import { createDrip, DRIPS_PATH } from "./api";
import { browserZone, dripFields, dripStatus, timingText, untilText, type DripDraft } from "./drips";
import { DripDetail } from "./DripDetail";
import { formErrors, NO_ERRORS, withoutFields, type FormErrors } from "../../shared/api/formErrors";
import { FieldError, FormError, invalidFor } from "./FieldError";
import { SchedulePicker } from "../../shared/schedule/SchedulePicker";
import { changedFields, whenDraft } from "../../shared/schedule/when";
import "./drips.css";
import { Pill } from "../../shared/ui/Pill";
import { FormActions } from "../../shared/ui/FormActions";

const FORM = "drip-form";
const FIELDS = ["name", "folder", "repeat", "time", "rrule", "cron", "timeZone"];

export function DripsPage({ selectedId }: { selectedId: string | null }) {
  const listed = useApi<{ drips: Drip[] }>(DRIPS_PATH);
  const { values } = useSettings();
  const [creating, setCreating] = useState(false);
  const now = useNow();
  const drips = listed.data?.drips;
  const selected = drips?.find((d) => d.id === selectedId);
  return (
    <section className="page drip-page touch" aria-labelledby="drips-title">
      <PageHeader
        title="Drips"
        tabTitle={selected?.name ?? "Drips"}
        headingId="drips-title"
        actions={
          <button type="button" className="primary" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
            New drip
          </button>
        }
      />
      <p className="muted drip-intro">
        A drip releases a queue to your inbox one item at a time, in order, on a cadence: a folder of Markdown, HTML and
        text files (in name order), or items you add here.
      </p>
      {values?.dripGlobalPause === true && (
        <p className="drip-banner" role="status">
          All drips are paused (<SettingLink setting={SETTING_LINKS.dripGlobalPause} /> is on): their ticks pass and
          release nothing until it is off.
        </p>
      )}
      {creating && (
        <DripForm
          onDone={(made) => {
            setCreating(false);
            if (made) {
              listed.reload();
              navigate(`/drips/${encodeURIComponent(made.id)}`);
            }
          }}
        />
      )}
      {listed.error !== undefined && <ErrorNote error={listed.error} onRetry={listed.reload} />}
      {listed.loading && !drips && <Loading what="drips" />}
      {drips?.length === 0 && !creating && <EmptyState>No drips yet: New drip makes the first.</EmptyState>}
      {drips && drips.length > 0 && (
        <div className="drip-split">
          <ul className="drip-list drip-queues" aria-label="Drips">
            {drips.map((drip) => {
              const status = dripStatus(drip);
              return (
                <li
                  key={drip.id}
                  className="drip-card"
                  data-drip-id={drip.id}
                  aria-current={drip.id === selectedId ? "true" : undefined}
                >
                  <div className="drip-card-head">
                    <h3>
                      <Link className="touch-link" to={`/drips/${encodeURIComponent(drip.id)}`}>
                        {drip.name}
                      </Link>
                    </h3>
                    <Pill status={status.tag} />
                  </div>
                  <p className="drip-when">
                    {timingText(drip)} · {drip.timeZone}
                  </p>
                  <p className="muted">{status.queue}</p>
                  {drip.state === "active" && drip.nextAt && (
                    <p className="muted">Next tick {untilText(drip.nextAt, now)}</p>
                  )}
                </li>
              );
            })}
          </ul>
          {selected ? (
            <DripDetail key={selected.id} drip={selected} onChanged={listed.reload} />
          ) : (
            <p className="muted drip-pick">
              {selectedId ? "There is no such drip." : "Choose a drip to see its queue."}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function DripForm({ onDone }: { onDone: (made: Drip | null) => void }) {
  const [draft, setDraft] = useState<DripDraft>(() => ({
    ...whenDraft("daily", browserZone()),
    name: "",
    source: "folder",
    folder: "",
  }));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const formNow = useNow();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = dripFields(draft, new Date());
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    setErrors(NO_ERRORS);
    createDrip(checked.value).then(onDone, (e: unknown) => {
      setBusy(false);
      setErrors(formErrors(e));
    });
  };
  const invalid = (field: string) => invalidFor(FORM, field, errors);
  return (
    <form className="drip-form" aria-label="New drip" onSubmit={submit} noValidate>
      <label>
        Name
        <input
          value={draft.name}
          autoFocus
          onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
          {...invalid("name")}
        />
      </label>
      <FieldError form={FORM} field="name" errors={errors} />
      <fieldset className="drip-source">
        <legend>Items</legend>
        <label className="drip-check">
          <input
            type="radio"
            name="source"
            checked={draft.source === "folder"}
            onChange={() => setDraft((d) => ({ ...d, source: "folder" }))}
          />
          The files of a folder
        </label>
        <label className="drip-check">
          <input
            type="radio"
            name="source"
            checked={draft.source === "app"}
            onChange={() => setDraft((d) => ({ ...d, source: "app" }))}
          />
          Items I add here
        </label>
      </fieldset>
      {draft.source === "folder" && (
        <label>
          Folder (an absolute path on this machine)
          <input
            value={draft.folder}
            spellCheck={false}
            placeholder="/home/me/course"
            onChange={(e) => setDraft((d) => ({ ...d, folder: e.target.value }))}
            {...invalid("folder")}
          />
        </label>
      )}
      <FieldError form={FORM} field="folder" errors={errors} />
      <SchedulePicker
        form={FORM}
        draft={draft}
        once={false}
        errors={errors}
        now={new Date(formNow)}
        onChange={(patch) => {
          setDraft((d) => ({ ...d, ...patch }));
          setErrors((e) => withoutFields(e, changedFields(patch)));
        }}
      />
      <FormError errors={errors} shown={FIELDS} />
      <FormActions submitLabel="Make the drip" onCancel={() => onDone(null)} busy={busy} />
    </form>
  );
}
