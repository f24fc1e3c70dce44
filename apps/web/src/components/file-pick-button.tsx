import { UploadOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useRef } from "react";

/**
 * A button that opens the file picker (a hidden `<input type="file">` it clicks), for imports:
 * `onPick` gets the file chosen; the input is emptied so that the same file can be picked again.
 */
export function FilePickButton({
  label,
  accept,
  onPick,
  loading,
  testId,
  inputTestId,
}: {
  label: string;
  accept: string;
  onPick: (file: File) => void;
  loading?: boolean;
  testId?: string;
  inputTestId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        icon={<UploadOutlined />}
        loading={loading}
        onClick={() => input.current?.click()}
        data-testid={testId}
      >
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        aria-label={label}
        data-testid={inputTestId}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) onPick(file);
        }}
      />
    </>
  );
}
