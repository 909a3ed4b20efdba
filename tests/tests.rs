//! hantei's integration tests: one binary, grouped by topic.

mod common;

mod analysis;
mod browser;
mod chain;
mod check;
mod cli;
mod dice;
mod dice_props;
mod diff;
mod guide;
mod init;
mod layers;
mod newcomer;
mod peer_d20;
mod peer_dice;
mod peer_games;
mod peer_hit_pool;
mod peer_keep_highest;
mod planner_props;
mod pool;
mod publish;
mod request;
mod rounds;
mod serve;
mod sweep;
mod unit;
mod validation;
mod verify_power;
