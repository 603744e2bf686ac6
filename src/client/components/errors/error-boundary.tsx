import { Component, type ErrorInfo, type ReactNode } from 'react';

import { createErrorId } from './error-id';
import { ErrorFallback } from './error-fallback';
import { buildErrorReport, reportError } from './report-error';

interface ErrorBoundaryProps {
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
  errorId: string | null;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** Catches render errors below it, logs and reports them once, and shows the error screen. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, errorId: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: toError(error), errorId: createErrorId() };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const errorId = this.state.errorId ?? createErrorId();
    console.error(`Caught by the error boundary (${errorId})`, error);
    void reportError(buildErrorReport(toError(error), info.componentStack ?? null, errorId));
  }

  private readonly handleRetry = (): void => {
    this.setState({ error: null, errorId: null });
  };

  override render(): ReactNode {
    const { error, errorId } = this.state;
    if (error === null || errorId === null) return this.props.children;
    return <ErrorFallback errorId={errorId} onRetry={this.handleRetry} />;
  }
}
