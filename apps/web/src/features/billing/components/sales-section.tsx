import { DownloadOutlined } from "@ant-design/icons";
import type { SalesReportQuery, SalesTable } from "@parlons/contract";
import { Card, Typography } from "antd";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import { DownloadButton } from "@/components/download-button";
import { downloadSalesCsv } from "../api/sales-api";

/** A card's title as a heading of the page's outline, at the card title's size. */
export const HEADING = { fontSize: 16, margin: 0 } as const;

/** A table of the report under its heading, with its CSV download. */
export function SalesSection({
  title,
  table,
  range,
  note,
  children,
}: {
  title: string;
  table: SalesTable;
  range: SalesReportQuery;
  note?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation("billing");
  const id = useId();
  return (
    <Card
      title={
        <h2 id={id} style={HEADING}>
          {title}
        </h2>
      }
      extra={
        <DownloadButton
          icon={<DownloadOutlined aria-hidden />}
          save={() => downloadSalesCsv(range, table)}
          aria-label={t("salesReport.csvOf", { table: title })}
          data-testid={`sales-csv-${table}`}
        >
          {t("salesReport.csv")}
        </DownloadButton>
      }
    >
      <section aria-labelledby={id}>
        {note && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
            {note}
          </Typography.Paragraph>
        )}
        {children}
      </section>
    </Card>
  );
}
