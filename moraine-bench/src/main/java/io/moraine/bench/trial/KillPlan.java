package io.moraine.bench.trial;

import java.util.Random;

/**
 * When a trial kills its child: {@code delayMillis} after its first acknowledgement, or at the {@code occurrence}-th
 * time it announces {@code phase} — while it waits there ({@code held}), or {@code delayMillis} after letting it go on.
 */
record KillPlan(String phase, int occurrence, boolean held, int delayMillis)
{
    static KillPlan choose(Random random)
    {
        return choose(random, TrialChild.PHASES);
    }

    /** A plan for a child that announces {@code phases}. */
    static KillPlan choose(Random random, java.util.List<String> phases)
    {
        if (random.nextBoolean()) {
            return new KillPlan("none", 0, false, random.nextInt(1500));
        }
        String phase = phases.get(random.nextInt(phases.size()));
        int occurrence = 1 + random.nextInt(phase.equals("during-flush-upload") ? 3 : 25);
        boolean held = random.nextBoolean();
        return new KillPlan(phase, occurrence, held, held ? 0 : random.nextInt(3));
    }

    boolean aimed()
    {
        return !phase.equals("none");
    }
}
