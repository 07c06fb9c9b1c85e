/** The page of /docs/connector: Swagger UI over the OpenAPI document (scripts from this server). */
export const CONNECTOR_DOCS_PAGE = `<!doctype html>
<html lang="fr">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API connecteur — Console Synchro</title>
    <link rel="stylesheet" href="/docs/connector/swagger-ui.css" />
    <link rel="stylesheet" href="/docs/connector/page.css" />
  </head>
  <body>
    <div id="reference"></div>
    <noscript>La référence interactive demande JavaScript : le document est à /api/connector/v1/openapi.json.</noscript>
    <script src="/docs/connector/swagger-ui-bundle.js"></script>
    <script src="/docs/connector/start.js"></script>
  </body>
</html>
`;

/** Starts Swagger UI (a file of its own: the pages' Content-Security-Policy allows no inline script). */
export const CONNECTOR_DOCS_START = `window.ui = SwaggerUIBundle({
  url: '/api/connector/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: false,
  tryItOutEnabled: false,
  supportedSubmitMethods: [],
  defaultModelsExpandDepth: 0,
});
// Landmarks and heading levels Swagger UI leaves out (axe), kept as it renders again.
const label = () => {
  const info = document.querySelector('.information-container');
  if (info && !info.hasAttribute('role')) {
    info.setAttribute('role', 'region');
    info.setAttribute('aria-label', 'Présentation de l’API');
  }
  for (const title of document.querySelectorAll('.opblock-tag, section.models > h4'))
    title.setAttribute('aria-level', '2');
  for (const title of document.querySelectorAll('.opblock h4, .opblock .opblock-title'))
    title.setAttribute('aria-level', '3');
  for (const title of document.querySelectorAll('.opblock h5')) title.setAttribute('aria-level', '4');
};
new MutationObserver(label).observe(document.getElementById('reference'), { childList: true, subtree: true });
`;

/**
 * Our adjustments of Swagger UI: contrasts of WCAG AA (method badges, version stamps, links), and
 * no « Authorize » bar nor lock buttons inside the operations' headers (nested buttons: the page
 * documents, it sends nothing).
 */
export const CONNECTOR_DOCS_CSS = `.swagger-ui .scheme-container,
.swagger-ui .opblock-summary .authorization__btn,
.swagger-ui .opblock-summary .view-line-link,
.swagger-ui .opblock-summary .copy-to-clipboard { display: none; }
.swagger-ui .info .title small, .swagger-ui .info .title small pre { background: #2f5d1f; color: #fff; }
.swagger-ui .info .title small.version-stamp { background: #2f5d1f; }
.swagger-ui .info a, .swagger-ui .info .url { color: #1a4f8f; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1b6b47; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1a4f8f; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #7a4a00; }
.swagger-ui .opblock .opblock-summary-description { color: #1f2328; }
`;
