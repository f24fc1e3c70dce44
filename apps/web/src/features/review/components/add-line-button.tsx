import { CheckOutlined, PlusCircleOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Tooltip } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAddLineToReview } from "../api/review-queries";

/** A transcript line's "add to my review deck" button. */
export function AddLineButton({ cueId }: { cueId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const _queryClient = useQueryClient();
  const [added, setAdded] = useState(false);
  const add = useAddLineToReview(cueId, {
    onSuccess: (result) => {
      setAdded(true);
      message.success(result.added ? t("review:line.added") : t("review:line.already"));
    },
  });
  const label = added ? t("review:line.inDeck") : t("review:line.addShort");
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        className="transcript__action"
        icon={added ? <CheckOutlined /> : <PlusCircleOutlined />}
        aria-label={label}
        disabled={added}
        loading={add.isPending}
        onClick={() => add.mutate()}
        data-testid="add-line"
      />
    </Tooltip>
  );
}
