/** Shown while the session is restored on start-up (no translation yet needed: aria only). */
export function FullPageSpinner({ label }: { label: string }) {
  return (
    <div className="full-page-spinner" role="status" aria-live="polite" aria-label={label}>
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}
