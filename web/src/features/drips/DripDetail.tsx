/**
 * One drip beside the list: its facts, Pause or Resume, Release next now (its next item at once;
 * its ticks go on) and Delete, its items (released ones with
 * when they went, then the queue numbered in release order) and the chosen item's content. A drip
 * fed in the app takes new items here and lets a waiting one be removed; a folder drip's items are
 * its files.
 */
import { useState, type FormEvent } from "react";
import type { Drip, DripItem, DripItemContent, DripItemKind } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { navigate } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { exactTime } from "../../shared/time";
import { ConfirmDialog } from "../../shared/ui/Dialog";
import { ErrorNote } from "../../shared/ui/Status";
import { addItem, changeDrip, deleteDrip, itemPath, itemsPath, releaseNext, removeItem } from "./api";
import { dripStatus, itemParam, itemView, wallTime } from "./drips";
import { formErrors, NO_ERRORS, type FormErrors } from "../../shared/api/formErrors";
import { FieldError, FormError, invalidFor } from "./FieldError";
import { ItemPreview } from "./ItemPreview";
import { CadenceActions, useCall } from "./actions";
import { Pill } from "../../shared/ui/Pill";

const FORM = "item-form";

export function DripDetail({ drip, onChanged }: { drip: Drip; onChanged: () => void }) {
  const items = useApi<{ items: DripItem[] }>(itemsPath(drip.id));
  const { values } = useSettings();
  const previewsOn = values?.dripHtmlPreviewEnabled !== false;
  const [openId, setOpenId] = useState<string | null>(() => itemParam(window.location.search));
  const call = useCall();
  const { busy, act } = call;
  const [confirming, setConfirming] = useState(false);
  const status = dripStatus(drip);
  const open = items.data?.items.find((i) => i.id === openId);
  const refresh = () => {
    items.reload();
    onChanged();
  };
  return (
    <article className="drip-detail" aria-label={drip.name}>
      <div className="drip-card-head">
        <h2>{drip.name}</h2>
        <Pill status={status.tag} />
      </div>
      <dl className="drip-facts">
        <div>
          <dt>Items</dt>
          <dd>{drip.folder ? <code>{drip.folder}</code> : "Added here"}</dd>
        </div>
        <div>
          <dt>Queue</dt>
          <dd>{status.queue}</dd>
        </div>
        <div>
          <dt>Next tick</dt>
          <dd>{drip.state === "active" && drip.nextAt ? wallTime(drip.nextAt, drip.timeZone) : "—"}</dd>
        </div>
        {drip.skipped > 0 && (
          <div>
            <dt>Skipped</dt>
            <dd>{drip.skipped} ticks while all drips were paused</dd>
          </div>
        )}
      </dl>
      {drip.problem && (
        <p className="inline-error" role="alert">
          {drip.problem}
        </p>
      )}
      <CadenceActions
        state={drip.state}
        call={call}
        onMove={(change) => act(() => changeDrip(drip.id, change), onChanged)}
        onDelete={() => setConfirming(true)}
      >
        <button type="button" disabled={busy} onClick={() => act(() => releaseNext(drip.id), refresh)}>
          Release next now
        </button>
      </CadenceActions>
      {!drip.folder && <ItemForm dripId={drip.id} onAdded={refresh} />}
      {items.error !== undefined && <ErrorNote error={items.error} onRetry={items.reload} />}
      {items.data && (
        <ol className="drip-items" aria-label="Items">
          {items.data.items.map((item) => (
            <li key={item.id} data-item-id={item.id} aria-current={item.id === openId ? "true" : undefined}>
              <button
                type="button"
                className="drip-item"
                onClick={() => setOpenId(item.id === openId ? null : item.id)}
              >
                <span className="drip-item-place">{item.position === null ? "Released" : `#${item.position}`}</span>
                <span className="drip-item-name">{item.name}</span>
                <Pill>{item.kind}</Pill>
                {item.releasedAt && (
                  <time className="muted" dateTime={item.releasedAt} title={exactTime(item.releasedAt)}>
                    {wallTime(item.releasedAt, drip.timeZone)}
                  </time>
                )}
              </button>
              {!drip.folder && item.position !== null && (
                <button
                  type="button"
                  className="drip-remove"
                  aria-label={`Remove ${item.name}`}
                  disabled={busy}
                  onClick={() => act(() => removeItem(drip.id, item.id), refresh)}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {open && <OpenItem key={open.id} dripId={drip.id} item={open} previewsOn={previewsOn} />}
      {confirming && (
        <ConfirmDialog
          title="Delete this drip"
          confirmLabel="Delete"
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            act(
              () => deleteDrip(drip.id),
              () => {
                onChanged();
                navigate("/drips");
              },
            );
          }}
        >
          <p>
            Delete <strong>{drip.name}</strong> and its queue? {drip.folder ? "Its folder's files stay. " : ""}What it
            released stays in the inbox.
          </p>
        </ConfirmDialog>
      )}
    </article>
  );
}

/** The chosen item: framed or chipped HTML needs no content; the rest is read once. */
function OpenItem({ dripId, item, previewsOn }: { dripId: string; item: DripItem; previewsOn: boolean }) {
  const view = itemView(item.kind, previewsOn);
  const read = useApi<DripItemContent>(view === "markdown" || view === "text" ? itemPath(dripId, item.id) : null);
  return (
    <section className="drip-open" aria-label={`Item ${item.name}`}>
      {read.error !== undefined && <ErrorNote error={read.error} />}
      <ItemPreview dripId={dripId} item={item} content={read.data?.content} previewsOn={previewsOn} />
    </section>
  );
}

const KINDS: readonly DripItemKind[] = ["markdown", "html", "text"];

function ItemForm({ dripId, onAdded }: { dripId: string; onAdded: () => void }) {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<DripItemKind>("markdown");
  const [content, setContent] = useState("");
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  // Drawn only while open: a closed <details> still lays its fields out under the list.
  const [adding, setAdding] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors(NO_ERRORS);
    addItem(dripId, { name, content, kind }).then(
      () => {
        setBusy(false);
        setName("");
        setContent("");
        onAdded();
      },
      (e: unknown) => {
        setBusy(false);
        setErrors(formErrors(e));
      },
    );
  };
  return (
    <details className="drip-add" open={adding} onToggle={(e) => setAdding(e.currentTarget.open)}>
      <summary>Add an item</summary>
      {adding && (
        <form className="drip-form" aria-label="Add an item" onSubmit={submit} noValidate>
          <div className="drip-row">
            <label>
              Name
              <input value={name} onChange={(e) => setName(e.target.value)} {...invalidFor(FORM, "name", errors)} />
            </label>
            <label>
              Kind
              <select value={kind} onChange={(e) => setKind(e.target.value as DripItemKind)}>
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <FieldError form={FORM} field="name" errors={errors} />
          <label>
            Content
            <textarea
              rows={5}
              value={content}
              onChange={(e) => setContent(e.target.value)}
              {...invalidFor(FORM, "content", errors)}
            />
          </label>
          <FieldError form={FORM} field="content" errors={errors} />
          <FormError errors={errors} shown={["name", "content"]} />
          <div className="drip-actions">
            <button type="submit" className="primary" disabled={busy}>
              Add to the queue
            </button>
          </div>
        </form>
      )}
    </details>
  );
}
