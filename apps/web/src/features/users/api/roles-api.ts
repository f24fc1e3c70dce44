import type { Role } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";

type Data<T> = { message?: string; data: T };

export interface Permission {
  slug: string;
  description: string;
}

const roleKeys = {
  all: ["roles"] as const,
  list: ["roles", "list"] as const,
  permissions: ["roles", "permissions"] as const,
};

/** `GET /v1/api/role` (roles.manage). */
export const rolesQuery = queryOptions({
  queryKey: roleKeys.list,
  queryFn: ({ signal }) =>
    api<Data<{ roles: Role[] }>>("/v1/api/role", { signal, silent: true }).then((r) => r.data.roles),
  staleTime: 30_000,
});

/** `GET /v1/api/permission` (roles.manage). */
export const permissionsQuery = queryOptions({
  queryKey: roleKeys.permissions,
  queryFn: ({ signal }) =>
    api<Data<{ permissions: Permission[] }>>("/v1/api/permission", { signal, silent: true }).then(
      (r) => r.data.permissions,
    ),
  staleTime: 5 * 60_000,
});

export interface NewRoleBody {
  title: string;
  description?: string;
  permissions: string[];
}

/** `POST /v1/api/role`. */
export function useCreateRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewRoleBody) =>
      api<Data<{ role: Role }>>("/v1/api/role", { method: "POST", body, silent: true }).then(
        (r) => r.data.role,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: roleKeys.all }),
  });
}

/** `DELETE /v1/api/{id}`: refused (409) for built-in roles and roles held by users. */
export function useDeleteRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ message: string }>(`/v1/api/${encodeURIComponent(id)}`, { method: "DELETE", silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
