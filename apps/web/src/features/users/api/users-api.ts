import type { Plan, Speak, UserListItem, UserStatus } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { listBody, type UserListFilters, type UserUpdateBody } from "../lib/users-helpers";

type Data<T> = { message?: string; data: T };
type Pagination = { page: number; pageSize: number; total: number };

export type UserListScope = "all" | "customers";

const userKeys = {
  all: ["users"] as const,
  lists: ["users", "list"] as const,
  list: (scope: UserListScope, filters: UserListFilters) => ["users", "list", scope, filters] as const,
  detail: (id: string) => ["users", "detail", id] as const,
  plans: (scope: "all" | "active") => ["users", "plans", scope] as const,
};

/** `POST /v1/users` or `POST /v1/users/customers`: one page of users, filtered on the server. */
export function usersListQuery(scope: UserListScope, filters: UserListFilters) {
  return queryOptions({
    queryKey: userKeys.list(scope, filters),
    queryFn: ({ signal }) =>
      api<Data<{ users: UserListItem[]; pagination: Pagination }>>(
        scope === "customers" ? "/v1/users/customers" : "/v1/users",
        { body: listBody(filters), signal },
      ).then((r) => r.data),
  });
}

/** `GET /v1/users/{id}`. */
export function userQuery(id: string) {
  return queryOptions({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) =>
      api<Data<{ user: UserListItem }>>(`/v1/users/${encodeURIComponent(id)}`, { signal, silent: true }).then(
        (r) => r.data.user,
      ),
    staleTime: 0,
  });
}

/**
 * Plans to name and choose: every plan (`GET /v1/plans`, needs plans.manage), or the active
 * ones (`GET /v1/plans/active`, public) just to show the names in the table.
 */
export function plansQuery(scope: "all" | "active") {
  return queryOptions({
    queryKey: userKeys.plans(scope),
    queryFn: ({ signal }) =>
      api<Data<{ plans: Plan[] }>>(scope === "all" ? "/v1/plans" : "/v1/plans/active", {
        signal,
        silent: true,
      }).then((r) => r.data.plans),
    staleTime: 60_000,
  });
}

function useInvalidateUsers() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: userKeys.all });
}

/** `POST /v1/users/user-approve?userId=`. */
export function useApproveUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (userId: string) =>
      api<Data<{ user: UserListItem }>>("/v1/users/user-approve", {
        method: "POST",
        query: { userId },
        silent: true,
      }).then((r) => r.data.user),
    onSuccess: invalidate,
  });
}

/** `POST /v1/users/status/update?status=&userId=`: disabling ends the user's sessions at once. */
export function useSetUserStatus() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ userId, status }: { userId: string; status: UserStatus }) =>
      api<Data<{ user: UserListItem }>>("/v1/users/status/update", {
        method: "POST",
        query: { status, userId },
        silent: true,
      }).then((r) => r.data.user),
    onSuccess: invalidate,
  });
}

export interface NewUserBody {
  email: string;
  password: string;
  full_name?: string;
  role: string;
  speak: Speak;
}

/** `POST /v1/users/add`. */
export function useAddUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: NewUserBody) =>
      api<Data<{ user: UserListItem }>>("/v1/users/add", { method: "POST", body, silent: true }).then(
        (r) => r.data.user,
      ),
    onSuccess: invalidate,
  });
}

/** `POST /v1/users/update/{id}`. */
export function useUpdateUser(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserUpdateBody) =>
      api<Data<{ user: UserListItem }>>(`/v1/users/update/${encodeURIComponent(id)}`, {
        method: "POST",
        body,
        silent: true,
      }).then((r) => r.data.user),
    onSuccess: (user) => {
      client.setQueryData(userKeys.detail(id), user);
      return client.invalidateQueries({ queryKey: userKeys.lists });
    },
  });
}
