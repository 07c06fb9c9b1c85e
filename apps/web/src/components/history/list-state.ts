import { useCallback, useEffect, useState } from 'react';
import { TERMINAL_FILTER_MAX } from '@synchro/contracts';

/**
 * The filters and the position of a history list (import history, transaction trace). Any filter
 * change goes back to page 1 without cursor (docs/spec-notes.md, Import history and transaction
 * trace: « changing filters resets the page to 1 »; a cursor belongs to its filters).
 */
export interface ListFilters {
  /** The calendar day chosen, `yyyy-MM-dd`, or null. */
  day: string | null;
  /** The search text applied (on Enter), trimmed; '' for none. */
  search: string;
  errorOnly: boolean;
  /** Only the records waiting to be imported (import history, `?waiting=1`: Général's « À traiter »). */
  waiting?: boolean;
  /**
   * One terminal's transactions (trace, `?terminal=ID`, the parameter repeated for each of its ids:
   * Terminaux's link, a terminal's tablet and smartphone ids).
   */
  terminals?: readonly string[];
}

/** A page to read: its number, and the keyset cursor of the neighbouring page it was reached from. */
export interface ListPosition {
  page: number;
  cursor: string | null;
}

export const NO_FILTERS: ListFilters = { day: null, search: '', errorOnly: false };
export const FIRST_PAGE: ListPosition = { page: 1, cursor: null };

/**
 * The filters an address asks for: `?search=REF&errors=1&day=2026-03-02` (the links of the
 * console's emails, docs/mail.md); none otherwise.
 */
export function filtersOfAddress(search: string): ListFilters {
  const params = new URLSearchParams(search);
  const day = params.get('day');
  return {
    day: day !== null && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null,
    search: (params.get('search') ?? '').trim().slice(0, 100),
    errorOnly: params.get('errors') === '1',
    ...(params.get('waiting') === '1' ? { waiting: true } : {}),
    ...terminalsOfAddress(params),
  };
}

/** The `terminal` parameters: blank ones left out, each id once, TERMINAL_FILTER_MAX at most. */
function terminalsOfAddress(params: URLSearchParams): Pick<ListFilters, 'terminals'> {
  const ids = [...new Set(params.getAll('terminal').filter((id) => id.trim() !== ''))]
    .map((id) => id.slice(0, 200))
    .slice(0, TERMINAL_FILTER_MAX);
  return ids.length > 0 ? { terminals: ids } : {};
}

/** The parameters of the filters, in the address's parameter names (filtersOfAddress reads them). */
const FILTER_PARAMS = ['day', 'search', 'errors', 'waiting', 'terminal'] as const;

/**
 * `search` (an address's query string) with its filter parameters replaced by those of `filters`,
 * the other parameters kept: a reload, a bookmark or a shared link shows the list as it is now.
 */
export function addressWithFilters(search: string, filters: ListFilters): string {
  const params = new URLSearchParams(search);
  for (const name of FILTER_PARAMS) params.delete(name);
  if (filters.day) params.set('day', filters.day);
  if (filters.search) params.set('search', filters.search);
  if (filters.errorOnly) params.set('errors', '1');
  if (filters.waiting) params.set('waiting', '1');
  for (const id of filters.terminals ?? []) params.append('terminal', id);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function useListState() {
  const [filters, setFilters] = useState<ListFilters>(() =>
    typeof window === 'undefined' ? NO_FILTERS : filtersOfAddress(window.location.search),
  );
  const [position, setPosition] = useState<ListPosition>(FIRST_PAGE);

  // The address follows the filters (« Retirer ce filtre » then a reload: the filter stays off).
  useEffect(() => {
    const { pathname, search, hash } = window.location;
    const next = addressWithFilters(search, filters);
    if (next !== search) window.history.replaceState(window.history.state, '', `${pathname}${next}${hash}`);
  }, [filters]);

  const changeFilters = useCallback((patch: Partial<ListFilters>) => {
    setFilters((current) => ({ ...current, ...patch }));
    setPosition(FIRST_PAGE);
  }, []);

  return {
    filters,
    position,
    setDay: useCallback((day: string | null) => changeFilters({ day }), [changeFilters]),
    setSearch: useCallback((search: string) => changeFilters({ search: search.trim() }), [changeFilters]),
    setErrorOnly: useCallback((errorOnly: boolean) => changeFilters({ errorOnly }), [changeFilters]),
    setTerminals: useCallback(
      (terminals: readonly string[] | undefined) => changeFilters({ terminals }),
      [changeFilters],
    ),
    setWaiting: useCallback((waiting: boolean) => changeFilters({ waiting }), [changeFilters]),
    goTo: setPosition,
  };
}

/**
 * The spec's date parameter of the import history: local noon of the chosen day, as an ISO
 * instant (docs/spec-notes.md, Import history and transaction trace: « the date filter is set to
 * noon local time »). The server takes that instant's day in the display zone.
 */
export function localNoonIso(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date, 12, 0, 0, 0).toISOString();
}

/**
 * Query string of a request: absent (null, undefined) and empty values left out; a list is the
 * parameter repeated, once per value.
 */
export function queryString(
  params: Record<string, string | number | boolean | readonly string[] | null | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === null || one === undefined || one === '') continue;
      search.append(name, String(one));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
