/**
 * The one way a screen says it has nothing to show: an icon and a short sentence from the locales
 * (a table without rows, a section whose fields are all empty, a panel without data).
 */
export function EmptyState({ text, className = '' }: { text: string; className?: string }) {
  return (
    <div className={`empty-state ${className}`} data-testid="empty-state">
      <i className="bi bi-inbox" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
