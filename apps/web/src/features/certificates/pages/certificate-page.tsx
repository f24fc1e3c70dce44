import { ArrowLeftOutlined, DownloadOutlined, LinkOutlined, PrinterOutlined } from "@ant-design/icons";
import { type Certificate, LOCALES } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Result, Skeleton, Space } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { DownloadButton } from "@/components/download-button";
import { LoadError } from "@/components/load-error";
import { ApiError } from "@/lib/api-error";
import { languageName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { certificateCourse } from "../api/certificate-queries";
import { certificateQuery, downloadCertificatePdf } from "../api/certificates-api";
import { CertificateDocument } from "../components/certificate-document";
import "@/components/printable.css";
import "../certificate.css";

/**
 * `/certificates/{id}`: the learner's certificate as a page that prints, its PDF in each of the
 * site's languages (the reader's first), and the public verification link to share.
 */
export function CertificatePage() {
  const { t } = useTranslation("certificates");
  const lang = useLang();
  const to = useLocalePath();
  const { id = "" } = useParams();
  const certificate = useQuery(certificateQuery(id));
  usePageTitle(
    certificate.data
      ? t("page.title", { course: certificateCourse(certificate.data, lang) })
      : t("page.heading"),
  );

  if (certificate.isError && !(certificate.error instanceof ApiError && certificate.error.status === 404)) {
    return <LoadError query={certificate} />;
  }
  if (certificate.isError) {
    return (
      <Result
        status="404"
        title={t("page.notFound")}
        extra={<ButtonLink to={to(pagePath("dashboard"))}>{t("page.back")}</ButtonLink>}
      />
    );
  }
  return (
    <div className="certificate-page">
      <div className="document-actions">
        <Link to={to(pagePath("dashboard"))}>
          <ArrowLeftOutlined aria-hidden /> {t("page.back")}
        </Link>
        {certificate.data && <CertificateButtons certificate={certificate.data} />}
      </div>
      {certificate.isPending ? <Skeleton active /> : <CertificateDocument certificate={certificate.data} />}
    </div>
  );
}

function CertificateButtons({ certificate }: { certificate: Certificate }) {
  const { t } = useTranslation("certificates");
  const lang = useLang();
  const { message } = App.useApp();
  const to = useLocalePath();
  const verifyPath = to(pagePath("certificateVerify", { code: certificate.code }));
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(`${window.location.origin}${verifyPath}`);
      message.success(t("page.copied"));
    } catch {
      message.error(t("page.copyFailed"));
    }
  };
  return (
    <Space wrap>
      <Button icon={<LinkOutlined aria-hidden />} onClick={() => void copy()} data-testid="certificate-copy">
        {t("page.copyLink")}
      </Button>
      <Button icon={<PrinterOutlined aria-hidden />} onClick={() => window.print()}>
        {t("page.print")}
      </Button>
      {LOCALES.map((code) => (
        <DownloadButton
          key={code}
          type={code === lang ? "primary" : "default"}
          icon={<DownloadOutlined aria-hidden />}
          save={() => downloadCertificatePdf(certificate, code)}
          data-testid={`certificate-pdf-${code}`}
        >
          {t("page.pdfIn", { language: languageName(code, lang) })}
        </DownloadButton>
      ))}
    </Space>
  );
}
