import { Mail } from './mail.service';

/**
 * The confirmation mail of a self-registration. Whoever registered chose the password, so the mail
 * says plainly that ignoring it leaves no account.
 */
export function confirmationMail(to: string, link: string, validHours: number): Mail {
  return {
    to,
    subject: 'Confirm your e-mail address',
    text:
      `Someone asked to create an account with this e-mail address.\n\n` +
      `If it was you, confirm your address to activate the account (valid ${validHours} hours): ${link}\n\n` +
      `If it was not you, ignore this e-mail: no account exists until the address is confirmed, ` +
      `and the request is dropped after ${validHours} hours. Do not follow the link for a registration ` +
      `you did not make: the account would keep the password its author chose.`,
  };
}

/** Sent instead of a confirmation when the address already has an account. */
export function alreadyRegisteredMail(to: string, resetLink: string): Mail {
  return {
    to,
    subject: 'You already have an account',
    text:
      `Someone asked to create an account with this e-mail address, which already has one. ` +
      `Nothing was changed.\n\n` +
      `If it was you, log in with your password, or choose a new one here: ${resetLink}\n\n` +
      `If it was not you, ignore this e-mail.`,
  };
}
