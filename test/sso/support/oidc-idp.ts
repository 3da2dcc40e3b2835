import { createSign, generateKeyPairSync, KeyObject, randomBytes } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
// oidc-provider@7 is CommonJS without bundled types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Provider } = require('oidc-provider');

export const SP_BASE = 'http://sp.test';
export const IDP_CLIENT = { id: 'svc-platform', secret: 'idp-client-secret-0123456789abcdef' };

type Claims = Record<string, unknown>;
interface GrantContext {
  oidc: {
    provider: { Grant: new (o: object) => { addOIDCScope(scope: string): void; save(): Promise<string> } };
    client: { clientId: string };
    session: { accountId: string };
  };
}

/**
 * A real OpenID provider (oidc-provider@7) on loopback. Logins are finished by the test through
 * `nextAccount`: the interaction endpoint signs that account in, consent is pre-granted.
 */
export class TestOidcProvider {
  issuer = '';
  private server?: http.Server;
  private readonly accounts = new Map<string, Claims>();
  private readonly signingKey: KeyObject;
  private readonly kid = `k-${randomBytes(4).toString('hex')}`;
  nextAccount = '';
  /** When set, the token endpoint answers this ID token instead of oidc-provider's. */
  forgedIdToken?: string;

  constructor() {
    this.signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  }

  addAccount(sub: string, claims: Claims) {
    this.accounts.set(sub, claims);
  }

  async start(): Promise<this> {
    this.server = http.createServer();
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    const jwk = { ...this.signingKey.export({ format: 'jwk' }), kid: this.kid, use: 'sig', alg: 'RS256' };
    const warn = console.warn;
    console.warn = () => undefined; // the in-memory adapter notice
    const provider = new Provider(this.issuer, {
      ttl: {
        Interaction: 600,
        Grant: 600,
        Session: 600,
        AccessToken: 600,
        IdToken: 600,
        AuthorizationCode: 60,
      },
      clients: [
        {
          client_id: IDP_CLIENT.id,
          client_secret: IDP_CLIENT.secret,
          redirect_uris: Array.from({ length: 40 }, (_, i) => `${SP_BASE}/auth/sso/callback/${i + 1}`),
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [jwk] },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['given_name', 'family_name', 'name', 'role', 'phone_number'],
      },
      conformIdTokenClaims: false,
      pkce: { methods: ['S256'], required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: {
        url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
      },
      cookies: { keys: ['test-cookie-key'] },
      findAccount: async (_ctx: unknown, sub: string) =>
        this.accounts.has(sub)
          ? { accountId: sub, claims: async () => ({ sub, ...this.accounts.get(sub) }) }
          : undefined,
      loadExistingGrant: async (ctx: GrantContext) => {
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client.clientId,
          accountId: ctx.oidc.session.accountId,
        });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    });
    console.warn = warn;
    const callback = provider.callback();
    this.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url?.startsWith('/interaction/')) {
        provider
          .interactionFinished(
            req,
            res,
            { login: { accountId: this.nextAccount } },
            { mergeWithLastSubmission: false },
          )
          .catch((err: Error) => {
            res.statusCode = 500;
            res.end(err.message);
          });
        return;
      }
      if (this.forgedIdToken && req.method === 'POST' && req.url?.startsWith('/token')) {
        req.resume();
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            access_token: 'forged',
            token_type: 'Bearer',
            expires_in: 60,
            id_token: this.forgedIdToken,
          }),
        );
        return;
      }
      callback(req, res);
    });
    return this;
  }

  /** An RS256 JWT signed with the provider's own key (for forged-token tests). */
  sign(payload: Claims): string {
    const enc = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${enc({ alg: 'RS256', typ: 'JWT', kid: this.kid })}.${enc(payload)}`;
    return `${input}.${createSign('RSA-SHA256').update(input).sign(this.signingKey).toString('base64url')}`;
  }

  /**
   * Follows the browser's part of the flow: authorization request, interaction (login), resume,
   * until the redirect back to the service provider; returns that redirect (path and query).
   */
  async authorize(authorizationUrl: string, account: string): Promise<string> {
    this.nextAccount = account;
    const cookies = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        cookies.set(pair.slice(0, i), pair.slice(i + 1));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`IdP answered ${res.status} without redirect: ${await res.text()}`);
      const next = new URL(location, url);
      if (next.origin === SP_BASE) return `${next.pathname}${next.search}`;
      url = next.toString();
    }
    throw new Error('too many redirects at the IdP');
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
