-- The SQL migration DocumentsOcr1734300000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
ALTER TABLE companies
  ADD COLUMN ocr_enabled boolean NOT NULL DEFAULT false,
  ADD COLUMN ocr_language varchar(5) NOT NULL DEFAULT 'en',
  ADD COLUMN ocr_auto_process boolean NOT NULL DEFAULT true,
  ADD COLUMN ocr_file_types varchar(200) NOT NULL DEFAULT 'pdf,png,jpg,jpeg,tiff,docx,doc';
CREATE TABLE uploaded_files (
  id serial PRIMARY KEY,
  company_id int NOT NULL REFERENCES companies(id),
  name varchar(255) NOT NULL,
  hash varchar(64) NOT NULL,
  ext varchar(10) NOT NULL,
  mime varchar(100) NOT NULL,
  size bigint NOT NULL,
  provider varchar(10) NOT NULL,
  folder_path varchar(400) NOT NULL,
  storage_key varchar(500) NOT NULL,
  ref varchar(100),
  ref_id bigint,
  field varchar(64),
  created_by_id int,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploaded_files_company_idx ON uploaded_files (company_id, id);
CREATE INDEX uploaded_files_ref_idx ON uploaded_files (ref, ref_id) WHERE ref IS NOT NULL;
CREATE TABLE document_contents (
  id serial PRIMARY KEY,
  company_id int NOT NULL REFERENCES companies(id),
  file_id int NOT NULL UNIQUE REFERENCES uploaded_files(id) ON DELETE CASCADE,
  status varchar(12) NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'skipped')),
  error_message varchar(2000),
  extracted_text text,
  text_length int NOT NULL DEFAULT 0,
  word_count int NOT NULL DEFAULT 0,
  page_count int NOT NULL DEFAULT 1,
  ocr_confidence numeric(5, 4),
  ocr_language varchar(10),
  processing_duration_ms int,
  processing_started_at timestamptz,
  processed_at timestamptz,
  indexed_for_search boolean NOT NULL DEFAULT false,
  file_type varchar(20) NOT NULL DEFAULT 'UPLOAD',
  search_vector tsvector,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_contents_company_idx ON document_contents (company_id, status, id);
CREATE INDEX document_contents_search_idx ON document_contents USING gin (search_vector);
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
CREATE TABLE uploaded_files (
  id serial PRIMARY KEY,
  company_id int NOT NULL REFERENCES companies(id),
  name varchar(255) NOT NULL,
  hash varchar(64) NOT NULL,
  ext varchar(10) NOT NULL,
  mime varchar(100) NOT NULL,
  size bigint NOT NULL,
  provider varchar(10) NOT NULL,
  folder_path varchar(400) NOT NULL,
  storage_key varchar(500) NOT NULL,
  ref varchar(100),
  ref_id bigint,
  field varchar(64),
  created_by_id int,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploaded_files_company_idx ON uploaded_files (company_id, id);
CREATE INDEX uploaded_files_ref_idx ON uploaded_files (ref, ref_id) WHERE ref IS NOT NULL;
CREATE TABLE document_contents (
  id serial PRIMARY KEY,
  company_id int NOT NULL REFERENCES companies(id),
  file_id int NOT NULL UNIQUE REFERENCES uploaded_files(id) ON DELETE CASCADE,
  status varchar(12) NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'skipped')),
  error_message varchar(2000),
  extracted_text text,
  text_length int NOT NULL DEFAULT 0,
  word_count int NOT NULL DEFAULT 0,
  page_count int NOT NULL DEFAULT 1,
  ocr_confidence numeric(5, 4),
  ocr_language varchar(10),
  processing_duration_ms int,
  processing_started_at timestamptz,
  processed_at timestamptz,
  indexed_for_search boolean NOT NULL DEFAULT false,
  file_type varchar(20) NOT NULL DEFAULT 'UPLOAD',
  search_vector tsvector,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_contents_company_idx ON document_contents (company_id, status, id);
CREATE INDEX document_contents_search_idx ON document_contents USING gin (search_vector);
COMMIT;
