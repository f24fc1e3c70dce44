import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { GLOSSARY_LIMITS, type GlossaryEntry } from "@parlons/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  App,
  Button,
  type ButtonProps,
  Empty,
  Form,
  Input,
  Modal,
  Skeleton,
  Space,
  Table,
  Tabs,
  Typography,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { ApiError, errorText } from "@/lib/api-error";
import { tablePages, WIDE_ONLY } from "@/lib/table";
import { glossaryQuery, useDeleteEntry, useSaveEntry } from "../api/glossary-api";

import { ImportCsv, Suggestions, type Values } from "./glossary-import-suggestions";

const PAGE_SIZE = 20;

const blank: Values = { term: "", meaning_fr: "", meaning_en: "", note: "" };

/**
 * Staff: a course's glossary, the meanings a learner reads on tapping a word of its lessons. Entries
 * are added, changed and deleted (after a confirmation), imported from a CSV, or accepted from the
 * suggestions the course's lines and their translations give.
 */
export function GlossaryEditor({ courseId }: { courseId: string }) {
  const { t } = useTranslation("courses");
  const [tab, setTab] = useState("entries");
  const [editing, setEditing] = useState<GlossaryEntry | "new" | null>(null);
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();

  const open = (entry: GlossaryEntry | "new", values: Values) => {
    form.resetFields();
    form.setFieldsValue(values);
    setEditing(entry);
  };
  const save = useSaveEntry(courseId, {
    onSuccess: () => {
      void message.success(t("glossary.saved"));
      setEditing(null);
    },
    onError: (error) => {
      const fields = error instanceof ApiError && error.errors ? Object.entries(error.errors) : [];
      const known = fields.filter(([name]) => name in blank);
      if (known.length)
        form.setFields(known.map(([name, errors]) => ({ name: name as keyof Values, errors })));
      else void message.error(errorText(error));
    },
  });

  return (
    <>
      <Typography.Paragraph type="secondary">{t("glossary.intro")}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: "entries",
            label: t("glossary.entries"),
            children: <Entries courseId={courseId} onEdit={(entry, values) => open(entry, values)} />,
          },
          {
            key: "suggestions",
            label: t("glossary.suggestions"),
            children: (
              <Suggestions
                courseId={courseId}
                onEdit={(values) => open("new", values)}
                accept={(body) => save.mutate({ body })}
                accepting={save.isPending}
              />
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={t(editing === "new" ? "glossary.addTitle" : "glossary.editTitle")}
        okText={t("glossary.save")}
        okButtonProps={{ loading: save.isPending, "data-testid": "glossary-save" } as ButtonProps}
        cancelText={t("common:actions.cancel")}
        onCancel={() => setEditing(null)}
        onOk={() =>
          void form
            .validateFields()
            .then((values) =>
              save.mutate({ id: editing === "new" || !editing ? undefined : editing.id, body: values }),
            )
            // the form shows what is missing beside its field
            .catch(() => undefined)
        }
        destroyOnHidden
        forceRender
      >
        <EntryForm form={form} />
      </Modal>
    </>
  );
}

function EntryForm({ form }: { form: ReturnType<typeof Form.useForm<Values>>[0] }) {
  const { t } = useTranslation("courses");
  const meaningRule = {
    validator: () =>
      form.getFieldValue("meaning_fr")?.trim() || form.getFieldValue("meaning_en")?.trim()
        ? Promise.resolve()
        : Promise.reject(new Error(t("glossary.meaningRequired"))),
  };
  return (
    <Form form={form} layout="vertical" initialValues={blank} data-testid="glossary-form">
      <Form.Item
        name="term"
        label={t("glossary.term")}
        rules={[{ required: true, whitespace: true, message: t("glossary.termRequired") }]}
      >
        <Input maxLength={GLOSSARY_LIMITS.term} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="meaning_fr"
        label={t("glossary.meaningFr")}
        rules={[meaningRule]}
        dependencies={["meaning_en"]}
      >
        <Input maxLength={GLOSSARY_LIMITS.meaning} autoComplete="off" />
      </Form.Item>
      <Form.Item name="meaning_en" label={t("glossary.meaningEn")}>
        <Input maxLength={GLOSSARY_LIMITS.meaning} autoComplete="off" />
      </Form.Item>
      <Form.Item name="note" label={t("glossary.note")}>
        <Input.TextArea maxLength={GLOSSARY_LIMITS.note} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
    </Form>
  );
}

function Entries({
  courseId,
  onEdit,
}: {
  courseId: string;
  onEdit: (entry: GlossaryEntry | "new", values: Values) => void;
}) {
  const { t } = useTranslation("courses");
  const { modal, message } = App.useApp();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState("");
  const list = useQuery({
    ...glossaryQuery(courseId, page, PAGE_SIZE, q),
    placeholderData: keepPreviousData,
  });
  const remove = useDeleteEntry(courseId, {
    onSuccess: () => void message.success(t("glossary.deleted")),
    onError: (error) => void message.error(errorText(error)),
  });
  const confirmDelete = (entry: GlossaryEntry) =>
    modal.confirm({
      title: t("glossary.deleteTitle"),
      content: t("glossary.deleteConfirm", { term: entry.term }),
      okText: t("glossary.delete"),
      cancelText: t("common:actions.cancel"),
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(entry.id).catch(() => undefined),
    });

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Space wrap className="glossary__bar">
        <Input.Search
          allowClear
          aria-label={t("glossary.search")}
          placeholder={t("glossary.search")}
          onSearch={(value) => {
            setQ(value.trim());
            setPage(1);
          }}
          style={{ maxWidth: 260 }}
          data-testid="glossary-search"
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => onEdit("new", blank)}
          data-testid="glossary-add"
        >
          {t("glossary.add")}
        </Button>
        <ImportCsv courseId={courseId} />
      </Space>
      {list.isError ? (
        <LoadError query={list} compact />
      ) : list.isPending ? (
        <Skeleton active />
      ) : (
        <Table<GlossaryEntry>
          rowKey="id"
          size="small"
          data-testid="glossary-table"
          scroll={{ x: true }}
          loading={list.isFetching}
          dataSource={list.data.entries}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={q ? t("glossary.noMatch", { q }) : t("glossary.empty")}
              />
            ),
          }}
          pagination={tablePages(page, PAGE_SIZE, list.data.pagination.total, setPage, {
            hideOnSinglePage: true,
          })}
          columns={[
            {
              title: t("glossary.term"),
              dataIndex: "term",
              render: (term: string) => <Typography.Text strong>{term}</Typography.Text>,
            },
            { title: t("glossary.meaningFr"), dataIndex: "meaning_fr" },
            { title: t("glossary.meaningEn"), dataIndex: "meaning_en", responsive: WIDE_ONLY },
            { title: t("glossary.note"), dataIndex: "note", responsive: WIDE_ONLY },
            {
              key: "actions",
              title: <span className="visually-hidden">{t("glossary.actions")}</span>,
              render: (_: unknown, entry) => (
                <Space size={4}>
                  <Button
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={t("glossary.edit", { term: entry.term })}
                    onClick={() =>
                      onEdit(entry, {
                        term: entry.term,
                        meaning_fr: entry.meaning_fr,
                        meaning_en: entry.meaning_en,
                        note: entry.note,
                      })
                    }
                  />
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t("glossary.deleteOne", { term: entry.term })}
                    onClick={() => confirmDelete(entry)}
                  />
                </Space>
              ),
            },
          ]}
        />
      )}
    </Space>
  );
}
