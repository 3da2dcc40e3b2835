import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { selfSignedCertificate } from './self-signed-certificate';

describe('selfSignedCertificate', () => {
  it('always yields a certificate OpenSSL parses, whatever the random serial', () => {
    // About one serial in 256 once began with a zero byte, which OpenSSL refuses as non-minimal DER.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const refused: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const { certificatePem } = selfSignedCertificate('idp.test', { privateKey });
      try {
        new X509Certificate(certificatePem);
      } catch (error) {
        refused.push(String(error));
      }
    }
    expect(refused).toEqual([]);
  });
});
