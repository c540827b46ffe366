/**
 * A list read while its events keep coming: the server may answer with what it held before an
 * event that reached the page during the read, so the events heard meanwhile are handed over
 * with the answer to be applied again. Only the latest read counts: an earlier read's answer or
 * failure is dropped.
 */
export interface CatchUp<E> {
  /** Notes an event as it is heard (and applied to what is shown). */
  heard(event: E): void;
  /** Starts a read that supersedes any earlier one; calls back only while it is the latest. */
  read<T>(
    request: Promise<T>,
    onAnswer: (value: T, missed: readonly E[]) => void,
    onError: (error: unknown) => void,
  ): void;
  /** Counts reads started: a later page read drops its answer once this has moved on. */
  generation(): number;
}

export function createCatchUp<E>(): CatchUp<E> {
  let generation = 0;
  let missed: E[] | null = null;
  return {
    heard(event) {
      missed?.push(event);
    },
    read(request, onAnswer, onError) {
      const mine = ++generation;
      const heard: E[] = [];
      missed = heard;
      request.then(
        (value) => {
          if (mine !== generation) return;
          missed = null;
          onAnswer(value, heard);
        },
        (error: unknown) => {
          if (mine !== generation) return;
          missed = null;
          onError(error);
        },
      );
    },
    generation: () => generation,
  };
}
