import { Button, Input, type InputRef } from "antd";
import { type KeyboardEvent, useRef } from "react";
import { useTranslation } from "react-i18next";
import { accentKeysOf } from "../lib/accent-keys";

/**
 * The answer typed in the language taught, with its accented letters as keys (a phone keyboard
 * hides them behind a long press); a key writes its letter at the caret and keeps the focus in
 * the box. Enter submits.
 */
export function AnswerBox(props: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  language: string;
  label: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const ref = useRef<InputRef>(null);
  const keys = accentKeysOf(props.language);

  const insert = (letter: string) => {
    const el = ref.current?.input;
    const start = el?.selectionStart ?? props.value.length;
    const end = el?.selectionEnd ?? props.value.length;
    props.onChange(props.value.slice(0, start) + letter + props.value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + letter.length, start + letter.length);
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter") {
      event.preventDefault();
      props.onSubmit();
    }
  };

  return (
    <div className="practice-answer">
      <Input
        ref={ref}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label={props.label}
        placeholder={props.label}
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="off"
        spellCheck={false}
        lang={props.language}
        size="large"
        data-testid={props.testId ?? "practice-answer"}
        autoFocus
      />
      {keys.length > 0 && (
        <fieldset className="practice-answer__keys" aria-label={t("practice:accents.label")}>
          {keys.map((letter) => (
            <Button
              key={letter}
              size="small"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => insert(letter)}
              aria-label={t("practice:accents.insert", { letter })}
            >
              {letter}
            </Button>
          ))}
        </fieldset>
      )}
    </div>
  );
}
