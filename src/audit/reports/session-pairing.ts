export interface SessionEvent {
  action: 'LOGIN' | 'LOGOUT';
  timestamp: Date;
  /** False for a failed login attempt, which opens no session. */
  success: boolean;
}

export interface SessionSummary {
  /** Successful logins: each opens a session. */
  loginSessions: number;
  /** Sessions closed by a LOGOUT. */
  closedSessions: number;
  /** Mean duration of the closed sessions in minutes, one decimal; 0 when none closed. */
  avgSessionDurationMinutes: number;
}

/**
 * Pairs each LOGOUT with the latest still-open successful LOGIN before it (events in time order).
 * A LOGIN while a session is open leaves the earlier one unclosed (it counts, without a duration);
 * a LOGOUT with no open session is ignored.
 */
export function pairSessions(events: SessionEvent[]): SessionSummary {
  let open: Date | null = null;
  let loginSessions = 0;
  const durations: number[] = [];
  for (const event of [...events].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime())) {
    if (event.action === 'LOGIN') {
      if (!event.success) continue;
      loginSessions += 1;
      open = event.timestamp;
    } else if (open) {
      durations.push(event.timestamp.getTime() - open.getTime());
      open = null;
    }
  }
  const mean = durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : 0;
  return {
    loginSessions,
    closedSessions: durations.length,
    avgSessionDurationMinutes: Math.round((mean / 60_000) * 10) / 10,
  };
}
