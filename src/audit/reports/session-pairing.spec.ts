import { pairSessions, SessionEvent } from './session-pairing';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 8, minute));
const ev = (action: SessionEvent['action'], minute: number, success = true): SessionEvent => ({
  action,
  timestamp: at(minute),
  success,
});

describe('pairSessions', () => {
  it('pairs each logout with the open login and averages closed sessions', () => {
    const summary = pairSessions([ev('LOGOUT', 40), ev('LOGIN', 0), ev('LOGIN', 30), ev('LOGOUT', 10)]);
    expect(summary).toEqual({ loginSessions: 2, closedSessions: 2, avgSessionDurationMinutes: 10 });
  });

  it('ignores failed logins and stray logouts, keeps unclosed sessions without duration', () => {
    const summary = pairSessions([
      ev('LOGOUT', 0),
      ev('LOGIN', 1, false),
      ev('LOGIN', 2),
      ev('LOGIN', 5),
      ev('LOGOUT', 20),
    ]);
    expect(summary).toEqual({ loginSessions: 2, closedSessions: 1, avgSessionDurationMinutes: 15 });
  });

  it('answers zeros with no events', () => {
    expect(pairSessions([])).toEqual({ loginSessions: 0, closedSessions: 0, avgSessionDurationMinutes: 0 });
  });
});
