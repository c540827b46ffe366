/** An inbox row as `GET /inbox` gives it (an unread alert titled by its id), for tests to vary. */
import type { InboxRow } from "../api/types.generated";

export function inboxRow(id: string, overrides: Partial<InboxRow> = {}): InboxRow {
  return {
    id,
    category: "alert",
    title: id,
    body: null,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    readAt: null,
    archivedAt: null,
    count: 1,
    source: {},
    actions: [],
    ...overrides,
  };
}
