import type { UseMutationResult } from "@tanstack/react-query";
import type { FormInstance } from "antd";
import { useState } from "react";
import { errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";

/**
 * Saves the row of an editor form through `save` (its mutation): once saved, `onSaved`; refused,
 * the server's field messages go on the fields of `fieldNames` and `textOf(error)` above the buttons.
 */
export function useEditorSave<Input, Row>(options: {
  form: FormInstance;
  fieldNames: readonly string[];
  save: UseMutationResult<Row, Error, Input>;
  onSaved: (row: Row) => void;
  textOf?: (error: unknown) => string;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const { form, fieldNames, save, onSaved, textOf = errorText } = options;
  const submit = (input: Input) => {
    setFailure(null);
    save.mutate(input, {
      onSuccess: onSaved,
      onError: (error) => {
        applyFieldErrors(form, error, fieldNames);
        setFailure(textOf(error));
      },
    });
  };
  return { failure, submit, pending: save.isPending };
}
