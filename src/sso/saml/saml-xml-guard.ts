import { Document, DOMParser, Element } from '@xmldom/xmldom';
import { inflateRawSync } from 'node:zlib';
import { SsoErrors } from '../sso-errors';

const MAX_XML_BYTES = 256 * 1024;
const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const ALLOWED_TRANSFORMS = new Set([
  'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
]);

/** What the ACS needs from a SAMLResponse before node-saml validates it. */
export interface SamlResponseFacts {
  xml: string;
  responseId: string;
  inResponseTo: string | null;
  destination: string | null;
  issuer: string | null;
  assertionId: string;
  /** Latest NotOnOrAfter of the assertion (conditions or subject confirmation), if any. */
  notOnOrAfter: Date | null;
  /** Recipient of every SubjectConfirmationData. */
  recipients: string[];
}

/**
 * Decodes and screens a SAMLResponse: size limit, no DOCTYPE or entity declarations (entity
 * expansion, external entities), only the usual signature transforms (transform bombs), exactly
 * one Response root with exactly one Assertion as its child (signature wrapping), no encrypted
 * assertions.
 */
export function screenSamlResponse(encoded: unknown): SamlResponseFacts {
  if (typeof encoded !== 'string' || !encoded.trim())
    throw SsoErrors.samlMalformed('SAMLResponse is required');
  const compact = encoded.replace(/\s+/g, '');
  if (compact.length > (MAX_XML_BYTES * 4) / 3 + 4 || !/^[A-Za-z0-9+/]+=*$/.test(compact)) {
    throw SsoErrors.samlMalformed('SAMLResponse is not base64 or is too large');
  }
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) {
    throw SsoErrors.samlMalformed('SAMLResponse must not contain a DOCTYPE or entity declarations');
  }
  const errors: string[] = [];
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(xml, 'text/xml');
  } catch (err) {
    throw SsoErrors.samlMalformed(`SAMLResponse is not well-formed XML: ${(err as Error).message}`);
  }
  if (errors.length || !doc?.documentElement)
    throw SsoErrors.samlMalformed('SAMLResponse is not well-formed XML');
  const root = doc.documentElement;
  if (root.localName !== 'Response' || root.namespaceURI !== SAMLP) {
    throw SsoErrors.samlMalformed('Not a SAML 2.0 Response');
  }
  if (doc.getElementsByTagNameNS(SAML, 'EncryptedAssertion').length > 0) {
    throw SsoErrors.samlMalformed('Encrypted assertions are not supported');
  }
  const assertions = doc.getElementsByTagNameNS(SAML, 'Assertion');
  if (assertions.length !== 1 || assertions[0].parentNode !== root) {
    throw SsoErrors.samlInvalid('The response must carry exactly one assertion, directly in the Response');
  }
  checkSignatures(doc);
  const assertion = assertions[0];
  const responseId = root.getAttribute('ID');
  const assertionId = assertion.getAttribute('ID');
  if (!responseId || !assertionId) throw SsoErrors.samlMalformed('Response and Assertion need an ID');
  const issuer = childText(root, SAML, 'Issuer') ?? childText(assertion, SAML, 'Issuer');
  return {
    xml,
    responseId,
    inResponseTo: root.getAttribute('InResponseTo') || null,
    destination: root.getAttribute('Destination') || null,
    issuer,
    assertionId,
    notOnOrAfter: latestNotOnOrAfter(assertion),
    recipients: recipientsOf(assertion),
  };
}

function checkSignatures(doc: Document) {
  const signatures = doc.getElementsByTagNameNS(DSIG, 'Signature');
  if (signatures.length > 2) throw SsoErrors.samlInvalid('Too many signatures');
  for (let i = 0; i < signatures.length; i++) {
    const references = signatures[i].getElementsByTagNameNS(DSIG, 'Reference');
    if (references.length !== 1) throw SsoErrors.samlInvalid('A signature must have exactly one reference');
    const transforms = signatures[i].getElementsByTagNameNS(DSIG, 'Transform');
    if (transforms.length > 2) throw SsoErrors.samlInvalid('Too many signature transforms');
    for (let t = 0; t < transforms.length; t++) {
      if (!ALLOWED_TRANSFORMS.has(transforms[t].getAttribute('Algorithm') ?? '')) {
        throw SsoErrors.samlInvalid('Unsupported signature transform');
      }
      if (transforms[t].getElementsByTagNameNS('*', 'XPath').length) {
        throw SsoErrors.samlInvalid('XPath transforms are not allowed');
      }
    }
  }
}

function childText(parent: Element, ns: string, local: string): string | null {
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    const el = n as unknown as Element;
    if (el.nodeType === 1 && el.localName === local && el.namespaceURI === ns) {
      return (el.textContent ?? '').trim() || null;
    }
  }
  return null;
}

function latestNotOnOrAfter(assertion: Element): Date | null {
  let latest: number | null = null;
  for (const local of ['Conditions', 'SubjectConfirmationData']) {
    const nodes = assertion.getElementsByTagNameNS(SAML, local);
    for (let i = 0; i < nodes.length; i++) {
      const value = Date.parse(nodes[i].getAttribute('NotOnOrAfter') ?? '');
      if (!Number.isNaN(value)) latest = Math.max(latest ?? 0, value);
    }
  }
  return latest === null ? null : new Date(latest);
}

function recipientsOf(assertion: Element): string[] {
  const nodes = assertion.getElementsByTagNameNS(SAML, 'SubjectConfirmationData');
  const out: string[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const recipient = nodes[i].getAttribute('Recipient');
    if (recipient) out.push(recipient);
  }
  return out;
}

/** Inflates an HTTP-Redirect message (bounded) and refuses DOCTYPE/entity declarations. */
export function screenRedirectMessage(encoded: string): string {
  let xml: string;
  try {
    xml = inflateRawSync(Buffer.from(encoded, 'base64'), { maxOutputLength: MAX_XML_BYTES }).toString('utf8');
  } catch {
    throw SsoErrors.samlMalformed('The SAML message is not deflated base64 or is too large');
  }
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) {
    throw SsoErrors.samlMalformed('The SAML message must not contain a DOCTYPE or entity declarations');
  }
  return xml;
}
