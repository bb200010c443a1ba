import { Component, type ErrorInfo, type ReactNode } from 'react';
import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { isApiError } from '@/api/errors';
import { ErrorFallback } from './ErrorFallback';

interface Props {
  children: ReactNode;
  onReset: () => void;
}

interface State {
  error: unknown;
  failed: boolean;
}

class Boundary extends Component<Props, State> {
  state: State = { error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    // API errors are expected answers; anything else is a bug worth a console line.
    if (!isApiError(error)) console.error('page crashed', error, info.componentStack);
  }

  private retry = () => {
    this.props.onReset();
    this.setState({ error: undefined, failed: false });
  };

  render() {
    if (this.state.failed) return <ErrorFallback error={this.state.error} onRetry={this.retry} />;
    return this.props.children;
  }
}

/**
 * Catches what a page throws (ApiError 403/404, an unreachable server, bugs) and shows
 * the matching error page inside the shell. Give it `key={location.pathname}` so moving
 * to another page clears it; Retry clears TanStack Query's error state and renders again.
 */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  return (
    <QueryErrorResetBoundary>{({ reset }) => <Boundary onReset={reset}>{children}</Boundary>}</QueryErrorResetBoundary>
  );
}
