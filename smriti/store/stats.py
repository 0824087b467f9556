"""Counts for `smriti status`: totals, per agent, per project, per category, per knowledge kind."""

from __future__ import annotations

from smriti.store.outbox import OutboxMixin

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any


class StatsMixin(OutboxMixin):
    def stats(self) -> dict[str, Any]:
        c = self.conn
        per_agent = {
            agent: {"sessions": n, "messages": m}
            for agent, n, m in c.execute(
                "select agent, count(*), sum(message_count) from sessions group by agent order by agent"
            )
        }
        return {
            "sessions": self._scalar("select count(*) from sessions"),
            "messages": self._scalar("select count(*) from messages"),
            "blobs": self._scalar("select count(*) from blobs"),
            "projects": self._scalar("select count(distinct project) from sessions"),
            "knowledge": self._scalar("select count(*) from knowledge"),
            "sources": self._scalar("select count(*) from sources"),
            "pending_index": self.outbox_size(),
            "agents": per_agent,
            "last_ingest": self._scalar("select max(ingested_at) from sources"),
        }

    def ingest_by_agent(self) -> dict[str, dict[str, Any]]:
        """Per agent: sources read and when one was last read."""
        return {
            agent: {"sources": n, "last_ingest": last}
            for agent, n, last in self.conn.execute(
                "select agent, count(*), max(ingested_at) from sources group by agent order by agent"
            )
        }

    def project_counts(self) -> list[dict[str, Any]]:
        """Sessions and messages per project (None: sessions outside any project), biggest first."""
        return [
            {"project": r[1], "project_key": r[0], "sessions": r[2], "messages": r[3], "last_activity": r[4]}
            for r in self.conn.execute(
                "select project, max(project_name), count(*), coalesce(sum(message_count), 0), "
                "max(coalesce(ended_at, started_at, ingested_at)) from sessions group by project "
                "order by count(*) desc, coalesce(sum(message_count), 0) desc, project"
            )
        ]

    def category_counts(self) -> dict[str, int]:
        """Sessions per primary category (uncategorized included)."""
        return {
            c: n
            for c, n in self.conn.execute(
                "select coalesce(category, 'uncategorized'), count(*) from sessions group by 1 order by 1"
            )
        }

    def knowledge_counts(self) -> list[dict[str, Any]]:
        """Knowledge items per (category, status, origin, repo, agent)."""
        return [
            {"category": r[0], "status": r[1], "origin": r[2], "repo": r[3] or "-", "agent": r[4] or "-", "items": r[5]}
            for r in self.conn.execute(
                "select category, status, origin, repo, agent, count(*) from knowledge group by 1, 2, 3, 4, 5 "
                "order by 1, 2, 3, 4, 5"
            )
        ]
