import { useEffect, useRef } from 'react';
import { useSearch } from 'wouter';

import {
  type LoginNotice,
  loginErrorNotice,
  loginMessageNotice,
  plainNoticeText,
} from '../../../../shared/login-notices';
import { toast } from '../../../components/ui/use-toast';

export function noticeFromSearch(search: string): LoginNotice | null {
  const params = new URLSearchParams(search);
  const error = params.get('error');
  if (error) return loginErrorNotice(error, params.get('details'));
  const message = plainNoticeText(params.get('message'));
  return message ? loginMessageNotice(message) : null;
}

/**
 * Shows the notice carried by /login?error=...&details=... or ?message=..., once, then removes
 * the query string so a reload does not show it again.
 */
export function useLoginQueryNotice(): void {
  const search = useSearch();
  // StrictMode runs effects twice on mount; the ref keeps the notice to one toast.
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current || !search) return;
    handled.current = true;
    const notice = noticeFromSearch(search);
    if (notice) {
      toast({
        title: notice.title,
        description: notice.description,
        duration: notice.durationMs,
        variant: notice.destructive ? 'destructive' : 'default',
      });
    }
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.hash);
  }, [search]);
}
