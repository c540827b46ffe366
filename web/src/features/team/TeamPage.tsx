/**
 * `/team` (setting `teamTimeEnabled`): the people the user works with as a world clock (their
 * time now and whether they are working), each one's zone and hours to set, and the meeting
 * planner: the hours over a week when everyone chosen is working, shown in the viewer's time and
 * in each person's.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { Button } from "../../shared/ui/Button";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { useNow } from "../../shared/useNow";
import { addPerson, listPeople, removePerson, updatePerson, type TeamPerson } from "./api";
import { clockText, isWorking, meetingWindows, parseClock, wallText } from "./zones";
import "./team.css";

const DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const ZONES: readonly string[] = (() => {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
})();
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;

const todayText = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

export function TeamPage() {
  const [people, setPeople] = useState<TeamPerson[]>();
  const [error, setError] = useState<unknown>();
  const [reads, setReads] = useState(0);
  const reload = useCallback(() => setReads((n) => n + 1), []);
  useEffect(() => {
    listPeople().then(
      (list) => {
        setPeople(list);
        setError(undefined);
      },
      (e: unknown) => setError(e),
    );
  }, [reads]);
  return (
    <section className="page team-page">
      <PageHeader title="Team time" note={<p className="muted">Your time zone: {HERE}</p>} />
      {error !== undefined && <ErrorNote error={error} onRetry={reload} />}
      {people === undefined && error === undefined && <Loading what="your team" />}
      {people && (
        <>
          <WorldClock people={people} onChanged={reload} />
          <AddPerson onAdded={reload} />
          <Planner people={people} />
        </>
      )}
      <datalist id="team-zones">
        {ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </section>
  );
}

function hoursText(p: TeamPerson): string {
  const days = p.workdays.map((d) => DAY_NAMES[d - 1]).join(" ");
  return `${clockText(p.startMinute)}–${clockText(p.endMinute)} ${days}`;
}

function WorldClock({ people, onChanged }: { people: TeamPerson[]; onChanged: () => void }) {
  const now = new Date(useNow());
  const [editing, setEditing] = useState<string | null>(null);
  const toast = useToast();
  const remove = (p: TeamPerson) =>
    removePerson(p.id).then(onChanged, (e: unknown) => toast.error(e, `${p.name} was not removed`));
  return (
    <section aria-labelledby="team-clock">
      <h2 id="team-clock">World clock</h2>
      <ul className="team-clock">
        {people.map((p) => {
          const working = isWorking(p, now);
          return (
            <li key={p.id} className="team-person" data-working={working || undefined}>
              <div className="team-person-head">
                <strong>{p.name}</strong>
                <span className="team-time">{wallText(now, p.zone)}</span>
                <span className={working ? "team-status working" : "team-status"}>
                  {working ? "Working now" : "Off"}
                </span>
              </div>
              <div className="muted">
                {p.zone} · {hoursText(p)}
                {p.memberAccountId ? " · workspace member" : ""}
              </div>
              {editing === p.id ? (
                <PersonForm
                  person={p}
                  onDone={() => {
                    setEditing(null);
                    onChanged();
                  }}
                />
              ) : (
                <div className="team-actions">
                  <Button onClick={() => setEditing(p.id)} label={`Edit ${p.name}`}>
                    Edit
                  </Button>
                  {!p.memberAccountId && (
                    <Button variant="danger" onClick={() => void remove(p)} label={`Remove ${p.name}`}>
                      Remove
                    </Button>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Zone, hours and days of someone already listed. */
function PersonForm({ person, onDone }: { person: TeamPerson; onDone: () => void }) {
  const toast = useToast();
  const [zone, setZone] = useState(person.zone);
  const [start, setStart] = useState(clockText(person.startMinute));
  const [end, setEnd] = useState(person.endMinute === 1440 ? "24:00" : clockText(person.endMinute));
  const [days, setDays] = useState<number[]>(person.workdays);
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    const startMinute = parseClock(start);
    const endMinute = parseClock(end);
    if (startMinute === null || endMinute === null) {
      toast.info("Hours are times of day, such as 09:00 and 17:30.");
      return;
    }
    updatePerson(person.id, { zone, startMinute, endMinute, workdays: days }).then(onDone, (e: unknown) =>
      toast.error(e, `${person.name} was not saved`),
    );
  };
  return (
    <form className="team-form" onSubmit={save} aria-label={`${person.name}'s hours`}>
      <label>
        Time zone <input list="team-zones" value={zone} onChange={(e) => setZone(e.target.value)} required />
      </label>
      <label>
        From <input value={start} onChange={(e) => setStart(e.target.value)} size={5} />
      </label>
      <label>
        To <input value={end} onChange={(e) => setEnd(e.target.value)} size={5} />
      </label>
      <fieldset className="team-days">
        <legend>Days</legend>
        {DAY_NAMES.map((name, i) => (
          <label key={name}>
            <input
              type="checkbox"
              checked={days.includes(i + 1)}
              onChange={(e) => setDays((d) => (e.target.checked ? [...d, i + 1] : d.filter((x) => x !== i + 1)))}
            />
            {name}
          </label>
        ))}
      </fieldset>
      <Button type="submit" variant="primary">
        Save
      </Button>
      <Button onClick={onDone}>Cancel</Button>
    </form>
  );
}

function AddPerson({ onAdded }: { onAdded: () => void }) {
  const toast = useToast();
  const [name, setName] = useState("");
  const [zone, setZone] = useState(HERE);
  const [start, setStart] = useState("09:00");
  const [end, setEnd] = useState("17:00");
  const add = (event: React.FormEvent) => {
    event.preventDefault();
    const startMinute = parseClock(start);
    const endMinute = parseClock(end);
    if (startMinute === null || endMinute === null) {
      toast.info("Hours are times of day, such as 09:00 and 17:30.");
      return;
    }
    addPerson({ name, zone, startMinute, endMinute }).then(
      () => {
        setName("");
        onAdded();
      },
      (e: unknown) => toast.error(e, `${name} was not added`),
    );
  };
  return (
    <form className="team-form" onSubmit={add} aria-label="Add a person">
      <h2>Add someone</h2>
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Time zone <input list="team-zones" value={zone} onChange={(e) => setZone(e.target.value)} required />
      </label>
      <label>
        From <input value={start} onChange={(e) => setStart(e.target.value)} size={5} />
      </label>
      <label>
        To <input value={end} onChange={(e) => setEnd(e.target.value)} size={5} />
      </label>
      <Button type="submit" variant="primary">
        Add
      </Button>
    </form>
  );
}

const dateText = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short" });
const timeText = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

function Planner({ people }: { people: TeamPerson[] }) {
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const [from, setFrom] = useState(todayText);
  const [length, setLength] = useState(30);
  const chosen = useMemo(() => people.filter((p) => !left.has(p.id)), [people, left]);
  // Midnight of the chosen day where the viewer is: the week is theirs, each person's hours their own.
  const windows = useMemo(() => meetingWindows(chosen, new Date(`${from}T00:00`), 7, length), [chosen, from, length]);
  const toggle = (id: string, on: boolean) =>
    setLeft((was) => {
      const next = new Set(was);
      if (on) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <section aria-labelledby="team-planner" className="team-planner">
      <h2 id="team-planner">Meeting planner</h2>
      <div className="team-form">
        <label>
          Week from <input type="date" value={from} onChange={(e) => e.target.value && setFrom(e.target.value)} />
        </label>
        <label>
          At least{" "}
          <select value={length} onChange={(e) => setLength(Number(e.target.value))}>
            {[30, 60, 90, 120].map((m) => (
              <option key={m} value={m}>
                {m} minutes
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset className="team-days">
        <legend>Who</legend>
        {people.map((p) => (
          <label key={p.id}>
            <input type="checkbox" checked={!left.has(p.id)} onChange={(e) => toggle(p.id, e.target.checked)} />
            {p.name}
          </label>
        ))}
      </fieldset>
      {chosen.length === 0 ? (
        <p className="muted">Choose who meets.</p>
      ) : windows.length === 0 ? (
        <p className="muted">No hours that week suit everyone chosen.</p>
      ) : (
        <ol className="team-windows" aria-label="Hours that suit everyone">
          {windows.map((w) => (
            <li key={w.start.toISOString()} className="team-window">
              <strong>
                {dateText.format(w.start)} {timeText.format(w.start)}–{timeText.format(w.end)}
              </strong>
              <span className="muted">
                {chosen
                  .map((p) => `${p.name} ${wallText(w.start, p.zone)}–${wallText(w.end, p.zone).slice(4)}`)
                  .join(" · ")}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
