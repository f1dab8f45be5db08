import {visionTool} from '@sanity/vision'
import {defineConfig} from 'sanity'
import {structureTool} from 'sanity/structure'
import {schemaTypes, SINGLETON_TYPES} from './schemas'
import {structure} from './structure'

// Placeholders keep `sanity build` working offline; set the real values in studio/.env.
const projectId = process.env.SANITY_STUDIO_PROJECT_ID || 'your-project-id'
const dataset = process.env.SANITY_STUDIO_DATASET || 'production'

const singletonTypes: readonly string[] = SINGLETON_TYPES
// A singleton may be edited and published, never duplicated, deleted or created anew.
const singletonActions = new Set(['publish', 'discardChanges', 'restore'])

export default defineConfig({
  name: 'default',
  title: 'Swift Scoop content',
  projectId,
  dataset,
  plugins: [structureTool({structure}), visionTool({defaultApiVersion: '2025-02-19'})],
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
