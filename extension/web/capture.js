// Injected into a documentation tab by "Verify this page": its value is what the panel reads.
({ url: location.href, title: document.title, html: document.documentElement.outerHTML });
