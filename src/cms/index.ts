// The public face of cms: other features import from this file only.
export { CmsModule } from './cms.module';
export { ContentTypeSync } from './content-type-sync.service';
