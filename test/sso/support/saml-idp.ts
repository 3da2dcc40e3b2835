import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { selfSignedCertificate } from '../../../src/sso/saml/self-signed-certificate';

export const IDP_ENTITY_ID = 'https://idp.test/saml';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export interface AssertionOptions {
  inResponseTo?: string;
  nameId: string;
  attributes?: Record<string, string>;
  audience: string;
  acsUrl: string;
  /** Minutes from now; negative for an expired assertion. */
  validForMinutes?: number;
  issuer?: string;
}

const id = () => `_${randomBytes(16).toString('hex')}`;
const iso = (offsetMinutes: number) => new Date(Date.now() + offsetMinutes * 60_000).toISOString();

/** A SAML 2.0 identity provider built in the test: it writes Responses and signs them with its key. */
export class TestSamlIdp {
  readonly key = selfSignedCertificate('test-idp');
  readonly otherKey = selfSignedCertificate('attacker-idp');

  /** The AuthnRequest id inside an SP redirect URL (HTTP-Redirect binding: deflate + base64). */
  static requestOf(authorizationUrl: string) {
    const url = new URL(authorizationUrl);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString();
    return {
      id: /\bID="([^"]+)"/.exec(xml)![1],
      xml,
      relayState: url.searchParams.get('RelayState'),
      signature: url.searchParams.get('Signature'),
    };
  }

  assertionXml(o: AssertionOptions): string {
    const valid = o.validForMinutes ?? 5;
    const notBefore = valid < 0 ? iso(valid - 10) : iso(-1);
    const attrs = Object.entries(o.attributes ?? {})
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${name}"><saml:AttributeValue>${value}</saml:AttributeValue></saml:Attribute>`,
      )
      .join('');
    const irt = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
    return (
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${notBefore}">` +
      `<saml:Issuer>${o.issuer ?? IDP_ENTITY_ID}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${o.nameId}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData${irt} NotOnOrAfter="${iso(valid)}" Recipient="${o.acsUrl}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${iso(valid)}">` +
      `<saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction>` +
      `</saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${notBefore}" SessionIndex="${id()}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
      `</saml:Assertion>`
    );
  }

  responseXml(o: AssertionOptions, assertion: string): string {
    const irt = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
      ` ID="${id()}" Version="2.0" IssueInstant="${iso(0)}" Destination="${o.acsUrl}"${irt}>` +
      `<saml:Issuer>${o.issuer ?? IDP_ENTITY_ID}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`
    );
  }

  /** Signs the element matched by `xpath` (enveloped signature placed after its Issuer). */
  sign(xml: string, element: 'Assertion' | 'Response', privateKeyPem = this.key.privateKeyPem): string {
    const sig = new SignedXml({
      privateKey: privateKeyPem,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    const xpath = `//*[local-name(.)='${element}']`;
    sig.addReference({
      xpath,
      transforms: [
        'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
        'http://www.w3.org/2001/10/xml-exc-c14n#',
      ],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, {
      location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' },
    });
    return sig.getSignedXml();
  }

  /** A complete Response whose assertion is signed with the IdP key (or `privateKeyPem`). */
  signedResponse(o: AssertionOptions, privateKeyPem?: string): string {
    return this.responseXml(o, this.sign(this.assertionXml(o), 'Assertion', privateKeyPem));
  }
}

export const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
