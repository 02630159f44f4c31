#!/usr/bin/python3
"""
pywikibot 7.7.3's ordinary read methods against one api.php (wikiquery or a MediaWiki loaded with the
same dump), printed one result per line so that two runs can be diffed.

  PYWIKIBOT_NO_USER_CONFIG=2 PYTHONPATH=<pywikibot 7.7.3 source tree> \
    /usr/bin/python3 test/clients/pywikibot_read.py http://127.0.0.1:18200/api.php

Needs Debian's python3-requests and python3-mwparserfromhell. pywikibot is not a dependency of
wikiquery (CI cannot install it): this is a check run by hand; issue 10 keeps its output.
Every method runs on its own: a failure prints "ERROR <method>: <exception>" and the run goes on.
"""
import os
import sys

os.environ.setdefault('PYWIKIBOT_NO_USER_CONFIG', '2')

import pywikibot  # noqa: E402
from pywikibot import pagegenerators  # noqa: E402,F401
from pywikibot.family import AutoFamily  # noqa: E402

api = sys.argv[1]
# pywikibot caches API answers per family: one family name per server
name = 'wq' + ''.join(ch for ch in api.split('//', 1)[-1].split('/', 1)[0] if ch.isdigit())
site = pywikibot.Site(name, AutoFamily(name, api))
N = 5


def show(name, fn):
    try:
        value = fn()
        if hasattr(value, '__iter__') and not isinstance(value, (str, bytes, dict)):
            value = list(value)
        print(f'{name}: {value}')
    except Exception as e:  # a failing method must not hide the others
        print(f'ERROR {name}: {type(e).__name__}: {e}')


def titles(gen):
    return [p.title() for p in gen]


main = pywikibot.Page(site, 'Головна сторінка')
show('site.version', lambda: site.mw_version)
show('site.siteinfo.sitename', lambda: site.siteinfo['sitename'])
show('site.namespaces[6]', lambda: str(site.namespaces[6]))
show('Page.exists', lambda: (main.exists(), pywikibot.Page(site, 'Немає такої сторінки').exists()))
show('Page.text[:60]', lambda: main.text[:60])
show('Page.latest_revision', lambda: (main.latest_revision.revid, main.latest_revision.user, str(main.latest_revision.timestamp)))
show('Page.revisions', lambda: [(r.revid, r.user, r.minor, r.comment) for r in pywikibot.Page(site, 'Київ').revisions(total=N)])
show('Page.categories', lambda: titles(pywikibot.Page(site, 'Київ').categories()))
show('site.allpages', lambda: titles(site.allpages(total=N)))
show('site.allpages(ns=10)', lambda: titles(site.allpages(namespace=10, total=N)))
show('site.allcategories', lambda: titles(site.allcategories(total=N)))
show('site.allimages', lambda: titles(site.allimages(total=N)))
cat = pywikibot.Category(site, 'Категорія:Україна')
show('Category.members', lambda: titles(cat.members(total=N)))
show('Category.subcategories', lambda: titles(cat.subcategories(total=N)))
show('Category.categoryinfo', lambda: cat.categoryinfo)
show('preloadpages', lambda: [(p.title(), len(p.text)) for p in site.preloadpages([pywikibot.Page(site, t) for t in ('Київ', 'Львів', 'Немає такої сторінки')])])
show('FilePage.using_pages', lambda: titles(pywikibot.FilePage(site, 'Файл:Прапор України.png').using_pages(total=N)))
show('site.users', lambda: [u['name'] for u in site.users(['Адміністратор', 'Немає такого користувача'])])
show('site.usercontribs', lambda: [(c['title'], c['revid']) for c in site.usercontribs(user='Адміністратор', total=N)])
show('site.logevents', lambda: [(e.type(), e.action(), e.page().title() if hasattr(e.page(), 'title') else e.page()) for e in site.logevents(total=N)])
show('site.recentchanges', lambda: [(c['type'], c['title']) for c in site.recentchanges(total=N)])
show('site.mediawiki_messages', lambda: site.mediawiki_messages(['mainpage', 'august', 'edit']))
show('site.expand_text', lambda: site.expand_text('{{PAGENAME}} {{Прапор}} {{lc:ABC}}', title='Київ'))
kyiv = pywikibot.Page(site, 'Київ')
show('Page.linkedPages', lambda: titles(kyiv.linkedPages(total=N)))
show('Page.templates', lambda: [p.title() for p in kyiv.templates()][:N])
show('Page.backlinks', lambda: titles(kyiv.backlinks(total=N)))
show('Page.getReferences', lambda: titles(kyiv.getReferences(total=N)))
show('Page.langlinks', lambda: [str(l) for l in kyiv.langlinks()][:N])
show('Page.extlinks', lambda: list(kyiv.extlinks(total=N)))
show('site.search(Latin)', lambda: titles(site.search('Linux', total=N)))
show('site.search(Cyrillic)', lambda: titles(site.search('місто', total=N)))
show('site.allusers', lambda: [u['name'] for u in site.allusers(total=N)])
