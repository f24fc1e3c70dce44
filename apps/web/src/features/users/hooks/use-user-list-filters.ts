import { useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { filtersFromParams, filtersToParams, type UserListFilters } from "../lib/users-helpers";

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The user list's filters, kept in the URL (page, size, status, role, search): the search box
 * answers at once and changes the URL once typing pauses.
 */
export function useUserListFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  // a debounced search may run after other filters changed: it must start from the latest URL
  const latestParams = useRef(params);
  const renderedParams = useRef(params);
  if (renderedParams.current !== params) {
    // the router has rendered a new URL: from now on it is the latest
    renderedParams.current = params;
    latestParams.current = params;
  }
  // the URL the page asked for, before the router renders it: a search typed right after
  // "clear filters" must compare with the cleared URL, not the one still on screen
  const replaceParams = (next: URLSearchParams) => {
    latestParams.current = next;
    setParams(next, { replace: true });
  };
  const setFilters = (patch: Partial<UserListFilters>) =>
    replaceParams(filtersToParams({ ...filtersFromParams(latestParams.current), page: 1, ...patch }));

  // The search box answers at once; the request waits until typing pauses.
  const [searchText, setSearchText] = useState(filters.search);
  const pendingSearch = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancelSearch = () => {
    clearTimeout(pendingSearch.current);
    pendingSearch.current = undefined;
  };
  const searchNow = (value: string) => {
    cancelSearch();
    if (value.trim() !== filtersFromParams(latestParams.current).search.trim()) setFilters({ search: value });
  };
  const onSearchChange = (value: string) => {
    setSearchText(value);
    cancelSearch();
    if (!value) searchNow(value);
    else pendingSearch.current = setTimeout(() => searchNow(value), SEARCH_DEBOUNCE_MS);
  };
  // the URL changed under us (back button, "clear filters"): show its search unless the user is typing
  useEffect(() => {
    if (!pendingSearch.current) setSearchText(filters.search);
  }, [filters.search]);
  useEffect(() => () => clearTimeout(pendingSearch.current), []);

  const clearFilters = () => {
    cancelSearch();
    setSearchText("");
    replaceParams(new URLSearchParams());
  };

  return { filters, setFilters, searchText, onSearchChange, searchNow, clearFilters };
}
