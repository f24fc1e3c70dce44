import { UsersList } from "../components/users-list";

/** `/User` (users.read): every account, with filters; approve, disable, enable and edit for users.manage. */
export function UsersPage() {
  return <UsersList scope="all" />;
}

/** `/User/customers` (users.read): the same table, learners only (`POST /v1/users/customers`). */
export function CustomersPage() {
  return <UsersList scope="customers" />;
}
