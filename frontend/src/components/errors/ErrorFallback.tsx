import { isApiError, isUnreachable } from '@/api/errors';
import { ForbiddenPage, NotFoundPage, ServerUnreachablePage, UnexpectedErrorPage } from './pages';

/** Picks the page for an error thrown while loading or rendering a page. */
export function ErrorFallback({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (isUnreachable(error)) return <ServerUnreachablePage onRetry={onRetry} />;
  if (isApiError(error) && error.status === 403) return <ForbiddenPage message={error.message} />;
  if (isApiError(error) && error.status === 404) return <NotFoundPage message={error.message} />;
  const message = isApiError(error) ? error.message : undefined;
  return <UnexpectedErrorPage message={message} onRetry={onRetry} />;
}
