import { CheckCircleFilled, CloseCircleFilled } from "@ant-design/icons";
import type { CertificateVerification } from "@parlons/contract";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import { formatDate } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import { certificateCourse } from "../api/certificate-queries";

/** A certificate as a document: the same words as its PDF, and whether it is valid or revoked. */
export function CertificateDocument({ certificate }: { certificate: CertificateVerification }) {
  const { t } = useTranslation("certificates");
  const lang = useLang();
  const revoked = certificate.status === "revoked";
  return (
    <article className="certificate" data-testid="certificate" aria-labelledby="certificate-title">
      <p className="certificate__brand">Parlons</p>
      <h1 id="certificate-title" className="certificate__title">
        {t("document.title")}
      </h1>
      <p className="certificate__intro">{t("document.intro")}</p>
      <p className="certificate__name" data-testid="certificate-name">
        {certificate.learner_name || t("document.noName")}
      </p>
      <p className="certificate__completed">{t("document.completed")}</p>
      <p className="certificate__course" data-testid="certificate-course">
        {certificateCourse(certificate, lang)}
      </p>
      <dl className="certificate__facts">
        <div>
          <dt>{t("document.issued")}</dt>
          <dd>
            <time dateTime={certificate.issued_at}>{formatDate(certificate.issued_at, lang)}</time>
          </dd>
        </div>
        <div>
          <dt>{t("document.code")}</dt>
          <dd data-testid="certificate-code">{certificate.code}</dd>
        </div>
      </dl>
      <div className="certificate__status" data-testid="certificate-status" role="status">
        {revoked ? (
          <Tag color="red" icon={<CloseCircleFilled aria-hidden />}>
            {t("status.revoked")}
            {certificate.revoked_at ? ` — ${formatDate(certificate.revoked_at, lang)}` : ""}
          </Tag>
        ) : (
          <Tag color="green" icon={<CheckCircleFilled aria-hidden />}>
            {t("status.valid")}
          </Tag>
        )}
      </div>
    </article>
  );
}
