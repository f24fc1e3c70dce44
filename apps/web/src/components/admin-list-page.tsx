import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Card, Flex, Result, Space, Table, type TableColumnsType, Tooltip, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { EditorDrawer } from "@/components/editor-drawer";
import { errorText } from "@/lib/api-error";

/** What the page knows of its list query (a TanStack `useQuery` result fits). */
interface ListState {
  isError: boolean;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

interface RowAction<T> {
  testId: string;
  label: (row: T) => string;
}

/**
 * The props of the form an `AdminListPage` opens in its drawer: the row under its own name
 * (`null`: a new one), then what to do once it is saved or cancelled.
 */
export type EditorFormProps<T, K extends string> = { [P in K]: T | null } & {
  onSaved: (row: T) => void;
  onCancel: () => void;
};

/** One row being edited (`row: null` is a new one), or none. */
type Editing<T> = { row: T | null } | null;

export interface AdminListPageProps<T extends object> {
  title: string;
  subtitle: string;
  create: { label: string; testId: string };
  /** Above the table, in its card: a search box. */
  toolbar?: ReactNode;
  list: ListState;
  loadError: string;
  retry: string;
  rows: readonly T[];
  rowKey: keyof T & string;
  tableTestId: string;
  empty: string;
  /** The pager (hidden while everything fits on one page), or none. */
  pages: { page: number; size: number; total: number | undefined; onChange: (page: number) => void } | false;
  /** The row's own columns; the edit and delete buttons come last, under `actionsTitle`. */
  columns: TableColumnsType<T>;
  actionsTitle: string;
  /** Buttons of a row before its edit and delete buttons. */
  rowActions?: (row: T) => ReactNode;
  edit: RowAction<T>;
  remove: RowAction<T> & {
    onClick: (row: T) => void;
    /** A row that may not be deleted: the button is disabled and the tooltip says why. */
    blocked?: (row: T) => string | undefined;
  };
  editor: {
    title: (row: T | null) => string;
    size: number;
    /** The form for `row` (null: a new one); `close` when it is saved or cancelled. */
    form: (row: T | null, close: () => void) => ReactNode;
  };
  /** After the editor: another drawer of the page. */
  children?: ReactNode;
}

/**
 * The staff screens that list one kind of thing (plans, configs, mail templates, events): a title with its
 * create button, the table with edit and delete per row, the editor in a drawer.
 */
export function AdminListPage<T extends object>(props: AdminListPageProps<T>) {
  const [editing, setEditing] = useState<Editing<T>>(null);
  const close = () => setEditing(null);
  const { list, edit, remove, pages } = props;
  const pagination = pages && {
    current: pages.page,
    pageSize: pages.size,
    total: pages.total ?? 0,
    onChange: pages.onChange,
    hideOnSinglePage: true,
  };

  const deleteButton = (row: T) => {
    const blocked = remove.blocked?.(row);
    const button = (
      <Button
        danger
        icon={<DeleteOutlined />}
        disabled={remove.blocked ? Boolean(blocked) : undefined}
        onClick={() => remove.onClick(row)}
        data-testid={remove.testId}
        aria-label={remove.label(row)}
      />
    );
    return remove.blocked ? <Tooltip title={blocked}>{button}</Tooltip> : button;
  };

  const columns: TableColumnsType<T> = [
    ...props.columns,
    {
      key: "actions",
      title: props.actionsTitle,
      render: (_: unknown, row: T) => (
        <Space>
          {props.rowActions?.(row)}
          <Button
            icon={<EditOutlined />}
            onClick={() => setEditing({ row })}
            data-testid={edit.testId}
            aria-label={edit.label(row)}
          />
          {deleteButton(row)}
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={1} className="page-title" style={{ margin: 0 }}>
            {props.title}
          </Typography.Title>
          <Typography.Text type="secondary">{props.subtitle}</Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ row: null })}
          data-testid={props.create.testId}
        >
          {props.create.label}
        </Button>
      </Flex>
      <Card>
        {props.toolbar}
        {list.isError ? (
          <Result
            status="warning"
            title={props.loadError}
            subTitle={errorText(list.error)}
            extra={<Button onClick={() => void list.refetch()}>{props.retry}</Button>}
          />
        ) : (
          <Table<T>
            rowKey={props.rowKey}
            data-testid={props.tableTestId}
            loading={list.isPending}
            dataSource={props.rows}
            pagination={pagination}
            scroll={{ x: true }}
            locale={{ emptyText: props.empty }}
            columns={columns}
          />
        )}
      </Card>
      <EditorDrawer
        title={props.editor.title(editing?.row ?? null)}
        open={editing !== null}
        onClose={close}
        size={props.editor.size}
      >
        {editing && props.editor.form(editing.row, close)}
      </EditorDrawer>
      {props.children}
    </Space>
  );
}
