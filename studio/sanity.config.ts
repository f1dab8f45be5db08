import {visionTool} from '@sanity/vision'
import {defineConfig} from 'sanity'
import {presentationTool} from 'sanity/presentation'
import {structureTool} from 'sanity/structure'
import {schemaTypes, SINGLETON_TYPES} from './schemas'
import {resolve} from './presentation/locations'
import {structure} from './structure'

// Placeholders keep `sanity build` working offline; set the real values in studio/.env.
const projectId = process.env.SANITY_STUDIO_PROJECT_ID || 'your-project-id'
const dataset = process.env.SANITY_STUDIO_DATASET || 'production'
// The website the Presentation tool shows (it must have SANITY_STUDIO_URL set to this Studio's URL).
const previewUrl = process.env.SANITY_STUDIO_PREVIEW_URL || 'http://localhost:3000'

const singletonTypes: readonly string[] = SINGLETON_TYPES
// A singleton may be edited and published, never duplicated, deleted or created anew.
const singletonActions = new Set(['publish', 'discardChanges', 'restore'])

export default defineConfig({
  name: 'default',
  title: 'Swift Scoop content',
  projectId,
  dataset,
  plugins: [
    structureTool({structure}),
    presentationTool({
      title: 'Preview',
      resolve,
      previewUrl: {
        initial: previewUrl,
        previewMode: {enable: '/resources/preview', disable: '/resources/preview/disable'},
      },
    }),
    visionTool({defaultApiVersion: '2025-02-19'}),
  ],
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter(({schemaType}) => !singletonTypes.includes(schemaType)),
  },
  document: {
    actions: (actions, {schemaType}) =>
      singletonTypes.includes(schemaType)
        ? actions.filter(({action}) => action !== undefined && singletonActions.has(action))
        : actions,
  },
})
