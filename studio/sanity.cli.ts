import {defineCliConfig} from 'sanity/cli'

export default defineCliConfig({
  api: {
    // Placeholders keep `sanity build` working offline; set the real values in studio/.env.
    projectId: process.env.SANITY_STUDIO_PROJECT_ID || 'your-project-id',
    dataset: process.env.SANITY_STUDIO_DATASET || 'production',
  },
  deployment: {
    autoUpdates: false,
  },
})
