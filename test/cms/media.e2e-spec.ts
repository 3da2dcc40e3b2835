import { textPdf, renderTextPng } from '../documents/fixtures';
import { upload } from '../documents/helpers';
import { createUser, loginFull } from '../identity/identity-helpers';
import { clientDatabase, sql } from '../support/pg';
import { cmsFixture, CmsFixture, fieldsOf } from './cms-helpers';

/** Media fields hold uploaded files of the caller's company; `/link` writes uploads into them. */
describe('custom tables: media fields and upload links', () => {
  let f: CmsFixture;
  let db: string;
  let admin: Record<string, string>;
  let far: Record<string, string>;
  let companyId: number;
  let otherCompanyId: number;
  const png = renderTextPng(['Photo']);
  const pdf = textPdf(['Report']);

  const uploadAs = async (headers: Record<string, string>, company: number, name: string, content: Buffer) =>
    (await upload(f.t, headers, company, [[name, content]]).expect(201)).body[0].id as number;
  const create = async (body: Record<string, unknown>) =>
    (await f.admin('post', '/api/cms/sites').send(body).expect(201)).body.data;
  const record = async (id: number) => (await f.admin('get', `/api/cms/sites/${id}`).expect(200)).body.data;
  const fileCount = async () => Number((await sql(db, 'SELECT count(*) AS n FROM uploaded_files'))[0].n);

  beforeAll(async () => {
    f = await cmsFixture('acme');
    db = clientDatabase(f.t.masterDatabase, 'acme');
    admin = { 'X-Client-ID': 'acme', Authorization: `Bearer ${f.acme.adminToken}` };
    const companies = await f.admin('get', '/api/admin/companies').expect(200);
    companyId = Math.min(...companies.body.data.map((c: { id: number }) => c.id));
    otherCompanyId = (await f.admin('post', '/api/admin/companies').send({ name: 'Elsewhere' }).expect(201))
      .body.data.id;
    const user = { email: 'far@acme.test', password: 'Far-password-1', role: 'MANAGER' as const };
    await createUser(f.t, f.acme.adminToken, { ...user, companyId: otherCompanyId }, 'acme');
    far = {
      'X-Client-ID': 'acme',
      Authorization: `Bearer ${(await loginFull(f.t, user.email, user.password, 'acme')).body.jwt}`,
    };
    await f
      .admin('post', '/api/cms/content-types')
      .send({
        collectionName: 'sites',
        // Client-scoped: members of both companies write the same records (see company-scope for the other kind).
        options: { companyScoped: false },
        attributes: {
          name: { type: 'string' },
          photo: { type: 'media', allowedTypes: ['images'] },
          report: { type: 'media', allowedTypes: ['files'] },
          docs: { type: 'media', multiple: true },
        },
      })
      .expect(201);
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("accepts only existing files of the caller's company that fit allowedTypes, on create and update", async () => {
    const pngId = await uploadAs(admin, companyId, 'photo.png', png);
    const pdfId = await uploadAs(admin, companyId, 'report.pdf', pdf);
    const farId = await uploadAs(far, otherCompanyId, 'far.pdf', pdf);

    for (const [body, field] of [
      [{ docs: [farId] }, 'docs'],
      [{ report: farId }, 'report'],
      [{ docs: [pdfId, 999999] }, 'docs'],
      [{ photo: 999999 }, 'photo'],
      [{ photo: pdfId }, 'photo'],
      [{ report: pngId }, 'report'],
      [{ docs: [2 ** 40] }, 'docs'],
    ] as const) {
      const res = await f.admin('post', '/api/cms/sites').send(body);
      expect([res.status, res.body.error?.code, fieldsOf(res)]).toEqual([400, 'VALIDATION_ERROR', [field]]);
    }
    // Every bad media field is named at once.
    const both = await f
      .admin('post', '/api/cms/sites')
      .send({ photo: pdfId, docs: [farId] })
      .expect(400);
    expect(fieldsOf(both).sort()).toEqual(['docs', 'photo']);

    const site = await create({ name: 'North', photo: pngId, report: pdfId, docs: [pdfId, pngId] });
    expect(site).toMatchObject({ photo: pngId, report: pdfId, docs: [pdfId, pngId] });
    expect(await record(site.id)).toMatchObject({ photo: pngId, docs: [pdfId, pngId] });

    const refused = await f.admin('put', `/api/cms/sites/${site.id}`).send({ docs: [pdfId, farId] });
    expect([refused.status, fieldsOf(refused)]).toEqual([400, ['docs']]);
    expect((await record(site.id)).docs).toEqual([pdfId, pngId]);
    await f
      .admin('put', `/api/cms/sites/${site.id}`)
      .send({ docs: [pngId], photo: null })
      .expect(200);
    expect(await record(site.id)).toMatchObject({ docs: [pngId], photo: null });

    // A member of the other company writes its own files, and not the first company's.
    const theirs = await f.t
      .http()
      .post('/api/cms/sites')
      .set(far)
      .send({ docs: [farId] });
    expect([theirs.status, theirs.body.data?.docs]).toEqual([201, [farId]]);
    const notTheirs = await f.t.http().post('/api/cms/sites').set(far).send({ photo: pngId });
    expect([notTheirs.status, fieldsOf(notTheirs)]).toEqual([400, ['photo']]);
  });

  it('links uploads into a single media field (replaced) and a multiple one (appended), audited', async () => {
    const pdfId = await uploadAs(admin, companyId, 'first.pdf', pdf);
    const site = await create({ name: 'Linked', docs: [pdfId] });
    const link = (field: string) => ({ ref: 'sites', refId: String(site.id), field });

    const first = await upload(f.t, admin, companyId, [['a.png', png]], '/link', link('photo')).expect(201);
    expect(first.body[0]).toMatchObject({ ref: 'sites', refId: site.id, field: 'photo' });
    const firstPhoto = first.body[0].id;
    const afterFirst = await record(site.id);
    expect(afterFirst.photo).toBe(firstPhoto);
    expect(afterFirst.updatedById).toBe(site.createdById);
    expect(new Date(afterFirst.updatedAt).getTime()).toBeGreaterThan(new Date(site.updatedAt).getTime());

    const second = await upload(f.t, admin, companyId, [['b.png', png]], '/link', link('photo')).expect(201);
    expect((await record(site.id)).photo).toBe(second.body[0].id);
    expect(second.body[0].id).not.toBe(firstPhoto);

    const many = await upload(
      f.t,
      admin,
      companyId,
      [
        ['c.pdf', pdf],
        ['d.png', png],
      ],
      '/link',
      link('docs'),
    ).expect(201);
    const added = many.body.map((b: { id: number }) => b.id);
    expect((await record(site.id)).docs).toEqual([pdfId, ...added]);

    // Records belong to the client: a member of the other company links its own upload to the record.
    const theirs = await upload(f.t, far, otherCompanyId, [['e.pdf', pdf]], '/link', link('docs')).expect(
      201,
    );
    const afterTheirs = await record(site.id);
    expect(afterTheirs.docs).toEqual([pdfId, ...added, theirs.body[0].id]);
    expect(afterTheirs.updatedById).not.toBe(site.createdById);
    // ... but never into the first company's folder.
    await upload(f.t, far, companyId, [['e.pdf', pdf]], '/link', link('docs')).expect(403);

    const audit = await sql<{ action: string; message: string }>(
      db,
      `SELECT action, message FROM audit_logs WHERE entity_type = 'sites' AND entity_id = $1 ORDER BY id`,
      [site.id],
    );
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE', 'UPDATE']);
  });

  it('refuses a link to a non-media field, an unknown record or a file the field does not take, leaving no file row', async () => {
    const site = await create({ name: 'Refusals' });
    const before = await fileCount();
    for (const [files, link, field] of [
      [[['a.png', png]], { ref: 'sites', refId: String(site.id), field: 'name' }, 'field'],
      [[['a.png', png]], { ref: 'sites', refId: String(site.id), field: 'nope' }, 'field'],
      [[['a.png', png]], { ref: 'sites', refId: '999999', field: 'photo' }, 'refId'],
      [[['a.pdf', pdf]], { ref: 'sites', refId: String(site.id), field: 'photo' }, 'files'],
      [[['a.png', png]], { ref: 'sites', refId: String(site.id), field: 'report' }, 'files'],
      [
        [
          ['a.png', png],
          ['b.png', png],
        ],
        { ref: 'sites', refId: String(site.id), field: 'photo' },
        'files',
      ],
    ] as const) {
      const res = await upload(f.t, admin, companyId, files as never, '/link', link);
      expect([res.status, res.body.error?.code, fieldsOf(res)]).toEqual([400, 'VALIDATION_ERROR', [field]]);
    }
    expect(await fileCount()).toBe(before);
    expect(await record(site.id)).toMatchObject({ photo: null, report: null, docs: null });

    // A ref that is neither a record type of the service nor a content type is kept as given.
    const other = await upload(f.t, admin, companyId, [['a.png', png]], '/link', {
      ref: 'gallery',
      refId: '5',
      field: 'images',
    }).expect(201);
    expect(other.body[0]).toMatchObject({ ref: 'gallery', refId: 5, field: 'images' });
  });

  it('needs cms:update to link into a custom table', async () => {
    const site = await create({ name: 'Guarded' });
    const token = await f
      .admin('post', '/api/admin/tokens')
      .send({
        name: 'Uploader',
        isFullAccess: false,
        permissions: [{ resourceName: 'documents', canCreate: true, canRead: true }],
      })
      .expect(201);
    const uploader = { 'X-Client-ID': 'acme', Authorization: `Bearer ${token.body.data.token}` };
    await upload(f.t, uploader, companyId, [['a.png', png]]).expect(201);
    const before = await fileCount();
    await upload(f.t, uploader, companyId, [['a.png', png]], '/link', {
      ref: 'sites',
      refId: String(site.id),
      field: 'photo',
    }).expect(403);
    expect(await fileCount()).toBe(before);
    expect((await record(site.id)).photo).toBeNull();
    // The same upload by a caller with cms:update starts the empty multiple field.
    const linked = await upload(f.t, admin, companyId, [['a.png', png]], '/link', {
      ref: 'sites',
      refId: String(site.id),
      field: 'docs',
    }).expect(201);
    expect((await record(site.id)).docs).toEqual([linked.body[0].id]);
  });
});
