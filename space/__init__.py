"""The Space's code: ``app.py`` builds the page from :mod:`space.ui` and launches it.

Only :mod:`space.ui` imports gradio.  The rest is plain Python that its tests run without it:

- :mod:`space.limits`: the bounds of one request (a public Space must answer everyone);
- :mod:`space.choices`: the option widgets' choices and defaults, from the library's OPTIONS;
- :mod:`space.parsing`: the visitor's input to texts and settings, or one :class:`UserError`;
- :mod:`space.scoring`: scoring within the time budget, and the API's answers;
- :mod:`space.render`: results to HTML;
- :mod:`space.examples`: the named examples of the One pair tab;
- :mod:`space.sessions`: each visitor's files, removed when the visitor leaves.

CSS and JavaScript are files in ``space/static``.
"""
