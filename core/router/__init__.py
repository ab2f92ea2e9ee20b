"""Sentence routers: for each sentence, the probability that it may go to the cloud."""

from core.router.base import HeuristicRouter, RouteInput, Router

__all__ = ["HeuristicRouter", "RouteInput", "Router"]
